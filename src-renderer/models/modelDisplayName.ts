import type { ModelRow } from "../../src-shared/contracts/models.js";

/** The name a row leads with: the alias, else the GGUF's own name, else the file's. */
export function modelDisplayName(model: Pick<ModelRow, "id" | "settings" | "gguf">): string {
  return model.settings.alias ?? model.gguf?.name ?? model.id.split("/").pop() ?? model.id;
}

export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}
