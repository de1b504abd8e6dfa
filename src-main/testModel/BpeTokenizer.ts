import { byteLevelEncode } from "./byteLevelEncode.js";
import { pretokenize } from "./pretokenize.js";
import type { BpeTokenizerModel } from "./trainBpeTokenizer.js";
import { unicodeToByte } from "./unicodeToByte.js";

/**
 * Encodes and decodes with a {@link BpeTokenizerModel} the way llama.cpp's BPE tokenizer does
 * (lowest-rank adjacent pair first, leftmost on ties), so tests can predict llama.cpp's tokens.
 */
export class BpeTokenizer {
  readonly #model: BpeTokenizerModel;
  readonly #idByToken: Map<string, number>;
  readonly #rankByPair: Map<string, number>;

  constructor(model: BpeTokenizerModel) {
    this.#model = model;
    this.#idByToken = new Map(model.tokens.map((token, id) => [token, id]));
    this.#rankByPair = new Map(model.merges.map((pair, rank) => [pair, rank]));
  }

  /** Token ids of `text`; special token texts become their control tokens when `parseSpecial`. */
  encode(text: string, { parseSpecial = true }: { parseSpecial?: boolean } = {}): number[] {
    const ids: number[] = [];
    const specials = parseSpecial ? this.#model.specialTokens : [];
    let rest = text;
    while (rest.length > 0) {
      let cut = rest.length;
      let special: string | undefined;
      for (const candidate of specials) {
        const at = rest.indexOf(candidate);
        if (at !== -1 && at < cut) {
          cut = at;
          special = candidate;
        }
      }
      for (const word of pretokenize(rest.slice(0, cut))) ids.push(...this.#encodeWord(word));
      if (special === undefined) break;
      ids.push(this.#id(special));
      rest = rest.slice(cut + special.length);
    }
    return ids;
  }

  decode(ids: readonly number[]): string {
    const bytes: number[] = [];
    for (const id of ids) {
      const token = this.#model.tokens[id];
      if (token === undefined) throw new Error(`Unknown token id ${id}`);
      if (this.#model.specialTokens.includes(token)) bytes.push(...Buffer.from(token, "utf8"));
      else for (const char of token) bytes.push(unicodeToByte.get(char) ?? 0);
    }
    return Buffer.from(bytes).toString("utf8");
  }

  #encodeWord(word: string): number[] {
    const symbols = byteLevelEncode(word);
    for (;;) {
      let bestRank = Infinity;
      let bestAt = -1;
      for (let i = 0; i + 1 < symbols.length; i++) {
        const rank = this.#rankByPair.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          bestAt = i;
        }
      }
      if (bestAt === -1) break;
      symbols.splice(bestAt, 2, symbols[bestAt] + symbols[bestAt + 1]);
    }
    return symbols.map((symbol) => this.#id(symbol));
  }

  #id(token: string): number {
    const id = this.#idByToken.get(token);
    if (id === undefined) throw new Error(`Token ${JSON.stringify(token)} is not in the vocabulary`);
    return id;
  }
}
