import { maxTagLength } from "../../src-shared/contracts/settings.js";

/** Control characters (NUL, tab, newline, DEL, C1) and line/paragraph separators. */
const controlCharacters = /[\p{Cc}\p{Zl}\p{Zp}]/gu;

/**
 * Server-side tag cleanup: Unicode NFC (a precomposed and a decomposed `é` are one tag), control
 * characters (`\n`, `\t`, NUL…) turned into spaces and runs of spaces made one (a pasted
 * `"new\nline"` is `"new line"`), trimmed, empty tags dropped, each cut to 64 characters, and
 * case-insensitive duplicates removed keeping the first spelling (`["MoE", "moe"]` → `["MoE"]`).
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const normalized: string[] = [];
  for (const raw of tags) {
    const clean = raw.normalize("NFC").replace(controlCharacters, " ").replace(/\s+/g, " ").trim();
    // Cut by code points so a surrogate pair is never split in half.
    const tag = [...clean].slice(0, maxTagLength).join("").trim();
    if (tag.length === 0) continue;
    const key = tag.toLocaleLowerCase("en-US");
    if (seen.has(key)) continue;
    seen.add(key);
    normalized.push(tag);
  }
  return normalized;
}
