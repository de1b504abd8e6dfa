import { PerchError } from "../../base/PerchError.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { ollamaModelNames } from "../../catalog/ollamaModelNames.js";

type ResolveDeps = Pick<OllamaRouteDeps, "listModels" | "canonicalId" | "refreshModels">;

/**
 * The Perch model id an Ollama name means (`ollamaModelNames`, or a model's alias). With `required`, an unknown
 * name is looked for again after the models folders are read (`refreshModels`: a file just copied
 * in), then is a 404; otherwise it goes on as an id (without `:latest`), so such a file is found
 * by the scheduler's rescan on a miss.
 */
export async function resolveOllamaModel(
  deps: ResolveDeps,
  name: string,
  options: { required?: boolean } = {},
): Promise<string> {
  const found = await findModel(deps, name);
  if (found !== undefined) return found;
  if (!options.required) return name.endsWith(":latest") ? name.slice(0, -":latest".length) : name;
  if (deps.refreshModels) {
    await deps.refreshModels();
    const refreshed = await findModel(deps, name);
    if (refreshed !== undefined) return refreshed;
  }
  throw new PerchError("model_not_found", `model '${name.slice(0, 512)}' not found`, { param: "model" });
}

async function findModel(deps: ResolveDeps, name: string): Promise<string | undefined> {
  const names = ollamaModelNames(await deps.listModels());
  const entry = names.resolve(name);
  if (entry) return entry.id;
  // A model's alias, with or without Ollama's default tag.
  for (const alias of new Set([name, name.replace(/:latest$/, "")])) {
    const aliased = names.resolve((await deps.canonicalId?.(alias)) ?? alias);
    if (aliased) return aliased.id;
  }
  return undefined;
}
