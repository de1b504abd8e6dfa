import type { ModelRow } from "../../src-shared/contracts/models.js";

// GGUF architectures that only embed text: they cannot chat, be benchmarked for answers, or be timed generating.
const embeddingArchitectures = new Set([
  "bert",
  "nomic-bert",
  "nomic-bert-moe",
  "jina-bert-v2",
  "t5encoder",
  "modern-bert",
]);

/** Ids other models name as their speculative draft model. */
function draftIds(models: ModelRow[]): Set<string> {
  const ids = new Set<string>();
  for (const model of models) {
    const draft = model.settings.speculative?.draftModel;
    if (draft) ids.add(draft);
  }
  return ids;
}

/**
 * Whether a model is only good as a helper: an embedding model, or a draft model (named as
 * another model's draft, or called "draft"). Such models are never picked by default; a user can
 * still choose them.
 */
export function isHelperModel(model: ModelRow, models: ModelRow[]): boolean {
  const architecture = model.gguf?.architecture?.toLowerCase() ?? "";
  if (embeddingArchitectures.has(architecture)) return true;
  if (/(^|[^a-z])embed/i.test(model.id)) return true;
  if (draftIds(models).has(model.id)) return true;
  return /(^|[^a-z])draft([^a-z]|$)/i.test(model.id) || /\bdraft\b/i.test(model.gguf?.name ?? "");
}

/**
 * The model a form or chart starts on: a loaded model first, then any present model that is not
 * a helper (draft or embedding), then anything present.
 */
export function pickDefaultModel(models: ModelRow[]): ModelRow | undefined {
  const present = models.filter((model) => !model.missing);
  const main = present.filter((model) => !isHelperModel(model, models));
  return main.find((model) => model.load.state === "loaded") ?? main[0] ?? present[0];
}
