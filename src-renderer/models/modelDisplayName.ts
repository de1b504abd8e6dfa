import type { ModelRow } from "../../src-shared/contracts/models.js";

/** The name a row leads with: the alias, else the GGUF's own name, else the file's. */
export function modelDisplayName(model: Pick<ModelRow, "id" | "settings" | "gguf">): string {
  return model.settings.alias ?? model.gguf?.name ?? model.id.split("/").pop() ?? model.id;
}

export function fileName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/**
 * A label per model for a list to choose from, each telling its model apart: two files of one
 * model (Q4_K_M and Q8_0 of the same repository, or one copy in each models folder) have the
 * same GGUF name, and the chat's and compare's menus showed two identical entries. A name shared
 * by several gets the quantization, and if that is shared too, the model's id (its file name).
 */
export function modelChoiceLabels(
  models: readonly Pick<ModelRow, "id" | "settings" | "gguf">[],
  label: (model: Pick<ModelRow, "id" | "settings" | "gguf">) => string = modelDisplayName,
): Map<string, string> {
  const labels = new Map(models.map((model) => [model.id, label(model)]));
  const shared = () => {
    const counts = new Map<string, number>();
    for (const text of labels.values()) counts.set(text, (counts.get(text) ?? 0) + 1);
    return (id: string) => (counts.get(labels.get(id)!) ?? 0) > 1;
  };
  let isShared = shared();
  for (const model of models) {
    const quantization = model.gguf?.quantization;
    const text = labels.get(model.id)!;
    if (isShared(model.id) && quantization && !text.includes(`(${quantization})`))
      labels.set(model.id, `${text} (${quantization})`);
  }
  isShared = shared();
  for (const model of models) {
    if (isShared(model.id)) labels.set(model.id, `${labels.get(model.id)!} · ${model.id}`);
  }
  return labels;
}
