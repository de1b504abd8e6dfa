import { maxTagLength } from "../../src-shared/contracts/settings.js";

/**
 * Server-side tag cleanup: trims, drops empty tags, cuts each to 64 characters and removes
 * case-insensitive duplicates keeping the first spelling (`["MoE", "moe"]` → `["MoE"]`).
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const normalized: string[] = [];
  for (const raw of tags) {
    // Cut by code points so a surrogate pair is never split in half.
    const tag = [...raw.trim()].slice(0, maxTagLength).join("").trim();
    if (tag.length === 0) continue;
    const key = tag.toLocaleLowerCase("en-US");
    if (seen.has(key)) continue;
    seen.add(key);
    normalized.push(tag);
  }
  return normalized;
}
