import { describe, expect, it } from "vitest";
import { BpeTokenizer } from "../../../src-main/testModel/BpeTokenizer.js";
import { byteToUnicode } from "../../../src-main/testModel/byteToUnicode.js";
import { pretokenize } from "../../../src-main/testModel/pretokenize.js";
import { TokenType, trainBpeTokenizer } from "../../../src-main/testModel/trainBpeTokenizer.js";
import { trainingCorpus } from "../../../src-main/testModel/trainingCorpus.js";
import { testTokenizer } from "../../../src-main/testModel/testTokenizer.js";

const model = testTokenizer();
const tokenizer = new BpeTokenizer(model);

describe("byte-level BPE tokenizer", () => {
  it("maps all 256 bytes to distinct printable characters, GPT-2 style", () => {
    expect(new Set(byteToUnicode).size).toBe(256);
    expect(byteToUnicode[0x20]).toBe("Ġ");
    expect(byteToUnicode[0x0a]).toBe("Ċ");
    expect(byteToUnicode[0x41]).toBe("A");
  });

  it("splits text like Qwen2's pre-tokenizer", () => {
    expect(pretokenize("Hello world, it's 2024!\n\n  def f(x):")).toEqual([
      "Hello",
      " world",
      ",",
      " it",
      "'s",
      " ",
      "2",
      "0",
      "2",
      "4",
      "!\n\n",
      " ",
      " def",
      " f",
      "(x",
      "):",
    ]);
  });

  it("trains deterministically to exactly 1024 tokens with 3 control tokens last", () => {
    const again = trainBpeTokenizer({
      corpus: trainingCorpus(),
      vocabularySize: 1024,
      specialTokens: model.specialTokens,
    });
    expect(again).toEqual(model);
    expect(model.tokens).toHaveLength(1024);
    expect(new Set(model.tokens).size).toBe(1024);
    expect(model.tokens.slice(0, 256)).toEqual(byteToUnicode);
    expect(model.tokens.slice(-3)).toEqual(["<|endoftext|>", "<|im_start|>", "<|im_end|>"]);
    expect(model.tokenTypes.slice(-3)).toEqual([TokenType.control, TokenType.control, TokenType.control]);
    expect(model.tokenTypes.slice(0, -3).every((type) => type === TokenType.normal)).toBe(true);
  });

  it("has every merge's parts and result in the vocabulary", () => {
    const vocabulary = new Set(model.tokens);
    expect(model.merges.length).toBeGreaterThanOrEqual(1024 - 256 - 3);
    for (const merge of model.merges) {
      const parts = merge.split(" ");
      expect(parts).toHaveLength(2);
      expect(
        vocabulary.has(parts[0]) && vocabulary.has(parts[1]) && vocabulary.has(parts[0] + parts[1]),
      ).toBe(true);
    }
  });

  it.each([
    "Hello world! How are you today?",
    "def fibonacci(n):\n    if n < 2:\n        return n\n",
    '{"a": [1, 2.5, -3e-4], "b": null}',
    "Ünïcödé, emoji 🦜🐦 and 中文 text\twith\ttabs   and trailing spaces   ",
    "\u0000\u0001 control bytes \r\n",
    trainingCorpus(),
  ])("round-trips %j", (text) => {
    expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
  });

  it("reads special tokens as single control tokens only when asked", () => {
    const ids = tokenizer.encode("<|im_start|>user\nHi<|im_end|>\n");
    expect(ids[0]).toBe(model.tokens.indexOf("<|im_start|>"));
    expect(ids).toContain(model.tokens.indexOf("<|im_end|>"));
    expect(tokenizer.encode("<|im_end|>", { parseSpecial: false }).length).toBeGreaterThan(1);
  });

  it("learned the chat template's words and common words as single tokens", () => {
    for (const word of ["user", "assistant", "system", " the", " return", "\n"])
      expect(tokenizer.encode(word)).toHaveLength(1);
  });
});
