import type { GgufFacts } from "../../src-shared/contracts/catalog.js";
import { suggestedModelTags, type SuggestedModelTag } from "../../src-shared/contracts/settings.js";

/**
 * Tags offered for a model from its GGUF header: `MoE` when it has experts, `Dense` otherwise;
 * none when the header is unknown or the user already chose either tag (their call wins, even
 * against the header). Never applied automatically.
 */
export function suggestTags(gguf: GgufFacts | null, tags: readonly string[]): SuggestedModelTag[] {
  if (!gguf || !gguf.architecture) return [];
  const suggestion: SuggestedModelTag = (gguf.expert_count ?? 0) > 1 ? "MoE" : "Dense";
  const offered = new Set(suggestedModelTags.map((tag) => tag.toLowerCase()));
  return tags.some((tag) => offered.has(tag.toLowerCase())) ? [] : [suggestion];
}
