// The names live with the catalog (it resolves a client's name through them, `canonicalId`).
export { ollamaModelNames, type OllamaModelNames } from "../../catalog/ollamaModelNames.js";
