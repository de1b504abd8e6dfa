import { seededRandom } from "../base/seededRandom.js";

// Ordinary English words: every tokenizer splits them into a handful of tokens, so the prompt
// costs the same to evaluate as real text (unlike repeated characters some tokenizers merge).
const words = (
  "time year people way day man thing woman life child world school state family student group " +
  "country problem hand part place case week company system program question work government " +
  "number night point home water room mother area money story fact month lot right study book " +
  "eye job word business issue side kind head house service friend father power hour game line " +
  "end member law car city community name president team minute idea kid body information back " +
  "parent face others level office door health person art war history party result change " +
  "morning reason research girl guy moment air teacher force education river garden window"
).split(" ");

/**
 * Deterministic pseudo-random prose of `count` words (mulberry32 seeded with `seed`), so runs
 * are repeatable and consecutive prompts differ beyond their prefix.
 */
export function fillerText(seed: number, count: number): string {
  const next = seededRandom(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const word = words[Math.floor(next() * words.length)];
    out.push(i % 12 === 11 ? `${word}.` : word);
  }
  return out.join(" ");
}
