// The scorer and the dashboard's result view split reasoning the same way: one implementation.
export { hasThinking, splitThinking, type SplitOutput } from "../../../src-shared/text/splitThinking.js";
