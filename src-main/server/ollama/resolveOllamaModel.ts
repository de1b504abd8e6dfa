import { PerchError } from "../../base/PerchError.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { ollamaModelNames } from "./ollamaModelNames.js";

/**
 * The Perch model id an Ollama name means (`ollamaModelNames`, or a model's alias). With `required`, an unknown
 * name is a 404 at once; otherwise it goes on as an id (without `:latest`), so a file just
 * copied into a models folder is found by the scheduler's rescan on a miss.
 */
export async function resolveOllamaModel(
  deps: Pick<OllamaRouteDeps, "listModels" | "canonicalId">,
  name: string,
  options: { required?: boolean } = {},
): Promise<string> {
  const names = ollamaModelNames(await deps.listModels());
  const entry = names.resolve(name);
  if (entry) return entry.id;
  // A model's alias, with or without Ollama's default tag.
  for (const alias of new Set([name, name.replace(/:latest$/, "")])) {
    const aliased = names.resolve((await deps.canonicalId?.(alias)) ?? alias);
    if (aliased) return aliased.id;
  }
  if (options.required) {
    throw new PerchError("model_not_found", `model '${name.slice(0, 512)}' not found`, { param: "model" });
  }
  return name.endsWith(":latest") ? name.slice(0, -":latest".length) : name;
}
