import { describe, expect, it } from "vitest";
import { cutTextToTokens, type PromptTokenizer } from "../../../src-main/perf/cutTextToTokens.js";
import { fillerText } from "../../../src-main/perf/fillerText.js";
import { UniquePrefixes } from "../../../src-main/perf/UniquePrefixes.js";

/** Words (with their leading space) split into pieces of at most 3 characters: round-trips. */
function chunkTokenizer(): PromptTokenizer & { pieces: string[] } {
  const pieces: string[] = [];
  const idOf = (piece: string) => {
    const index = pieces.indexOf(piece);
    if (index >= 0) return index;
    pieces.push(piece);
    return pieces.length - 1;
  };
  return {
    pieces,
    tokenize: (text) =>
      (text.match(/ ?[^ ]+| +/g) ?? []).flatMap((word) => (word.match(/.{1,3}/g) ?? []).map(idOf)),
    detokenize: (tokens) => tokens.map((token) => pieces[token]).join(""),
  };
}

describe("cutTextToTokens", () => {
  const text = fillerText(7, 600);

  it("cuts to exactly the requested token count for every length", () => {
    const tokenizer = chunkTokenizer();
    for (const count of [1, 2, 3, 17, 128, 500, 1000]) {
      const cut = cutTextToTokens(tokenizer, text, count);
      expect(tokenizer.tokenize(cut)).toHaveLength(count);
      expect(text.startsWith(cut)).toBe(true);
    }
  });

  it("corrects a detokenizer that does not round-trip (adds a trailing space)", () => {
    const base = chunkTokenizer();
    const lossy: PromptTokenizer = {
      tokenize: base.tokenize,
      detokenize: (tokens) => `${base.detokenize(tokens)} `,
    };
    for (const count of [5, 64, 333]) {
      expect(lossy.tokenize(cutTextToTokens(lossy, text, count))).toHaveLength(count);
    }
  });

  it("falls back to cutting by characters when token slices never land on the count", () => {
    const base = chunkTokenizer();
    // Every detokenized slice gains two tokens: only the character search can find the count.
    const skewed: PromptTokenizer = {
      tokenize: base.tokenize,
      detokenize: (tokens) => `${base.detokenize(tokens)} xx yy`,
    };
    expect(skewed.tokenize(cutTextToTokens(skewed, text, 50))).toHaveLength(50);
  });

  it("returns an empty prompt for zero tokens and throws when the text is too short", () => {
    const tokenizer = chunkTokenizer();
    expect(cutTextToTokens(tokenizer, text, 0)).toBe("");
    expect(() => cutTextToTokens(tokenizer, "a few words", 100)).toThrow(/fewer than/);
  });
});

describe("fillerText", () => {
  it("is deterministic per seed and differs between seeds", () => {
    expect(fillerText(3, 50)).toBe(fillerText(3, 50));
    expect(fillerText(3, 50)).not.toBe(fillerText(4, 50));
    expect(fillerText(3, 50).split(" ")).toHaveLength(50);
    expect(fillerText(3, 500)).toMatch(/^[a-z. ]+$/);
  });
});

describe("UniquePrefixes", () => {
  const firstToken = (text: string) => text.codePointAt(0);

  it("gives every prompt a different first token, across runs on the same model", () => {
    const prefixes = new UniquePrefixes({ firstTokenOf: firstToken });
    const firstRun = Array.from({ length: 20 }, () => firstToken(prefixes.next("run1")));
    const secondRun = Array.from({ length: 20 }, () => firstToken(prefixes.next("run2")));
    expect(new Set([...firstRun, ...secondRun]).size).toBe(40);
  });

  it("moves on to more stems (the vocabulary) once the built-in ones are used", () => {
    const more = Array.from({ length: 300 }, (_, i) => String.fromCodePoint(0x100 + i));
    const prefixes = new UniquePrefixes({ firstTokenOf: firstToken, moreStems: () => more });
    const firsts = Array.from({ length: 200 }, () => firstToken(prefixes.next("r")));
    expect(new Set(firsts).size).toBe(200);
  });

  it("still returns distinct prefixes once first tokens run out", () => {
    const prefixes = new UniquePrefixes({ firstTokenOf: () => 1 });
    const all = Array.from({ length: 10 }, () => prefixes.next("r"));
    expect(new Set(all).size).toBe(10);
  });

  it("makes every prefix distinct without a tokenizer, tagged with the run", () => {
    const prefixes = new UniquePrefixes();
    const all = Array.from({ length: 200 }, () => prefixes.next("f00d42"));
    expect(new Set(all).size).toBe(200);
    for (const prefix of all) expect(prefix).toContain("f00d42-");
  });
});
