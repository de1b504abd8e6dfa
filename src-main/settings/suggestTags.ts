import type { GgufFacts } from "../../src-shared/contracts/catalog.js";
import type { SuggestedModelTag } from "../../src-shared/contracts/settings.js";

/**
 * Tags offered for a model from its GGUF header: `MoE` when it has experts, `Dense` otherwise,
 * none when the header is unknown or the user already has the tag. Never applied automatically.
 */
export function suggestTags(gguf: GgufFacts | null, tags: readonly string[]): SuggestedModelTag[] {
  if (!gguf || !gguf.architecture) return [];
  const suggestion: SuggestedModelTag = (gguf.expert_count ?? 0) > 1 ? "MoE" : "Dense";
  const has = tags.some((tag) => tag.toLowerCase() === suggestion.toLowerCase());
  return has ? [] : [suggestion];
}
