import { postJson, readAll } from "./postJson.js";

const words = [
  "rivers",
  "numbers",
  "python",
  "lists",
  "clouds",
  "maple",
  "trees",
  "orbits",
  "stones",
  "embers",
  "harbor",
  "lantern",
  "meadow",
  "copper",
  "violin",
  "glacier",
  "pepper",
  "canyon",
  "signal",
  "thunder",
];

/** Counts a text's tokens as the server will (llama-server's `/tokenize`, special tokens included). */
export function llamaServerTokenCounter(url: string): (text: string) => Promise<number> {
  return async (text) => {
    const response = await postJson(`${url}/tokenize`, { content: text, add_special: true });
    const body = await readAll(response);
    if (response.statusCode !== 200) throw new Error(`/tokenize answered ${response.statusCode}: ${body}`);
    return (JSON.parse(body) as { tokens: unknown[] }).tokens.length;
  };
}

/**
 * A prompt of `targetTokens` tokens (or one or two fewer), starting with `tag` so that no two
 * prompts share a cached prefix on either server.
 */
export async function makePrompt(
  tag: string,
  targetTokens: number,
  countTokens: (text: string) => Promise<number>,
): Promise<string> {
  let seed = 0;
  for (const char of tag) seed = (seed * 31 + char.charCodeAt(0)) >>> 0;
  const textOf = (count: number) =>
    `${tag}: ${Array.from({ length: count }, (_, i) => words[(seed + i * 7 + (i >> 2)) % words.length]).join(" ")}`;
  let low = 0;
  let high = targetTokens;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((await countTokens(textOf(middle))) <= targetTokens) low = middle;
    else high = middle - 1;
  }
  return textOf(low);
}
