import { describe, expect, it } from "vitest";
import { splitTextByTokens } from "../../../src-main/scheduler/splitTextByTokens.js";
import { useTestModel } from "../../helpers/testModels.js";

const loaded = useTestModel();

describe("splitTextByTokens (the generated model's byte-level tokenizer)", () => {
  it("gives a character split over several tokens to the token that completes it; pieces join to the text", () => {
    const text = "naïve café → 🙂 ok";
    const tokens = loaded.model.tokenize(text);
    const pieces = splitTextByTokens(
      loaded.model,
      tokens.map((token) => [token]),
      text,
      [],
    );
    expect(pieces).toHaveLength(tokens.length);
    expect(pieces.join("")).toBe(text);
    // The byte-level vocabulary splits at least the emoji over several tokens.
    expect(tokens.length).toBeGreaterThan(pieces.filter((piece) => piece.length > 0).length);
    for (const piece of pieces) expect(piece).not.toContain("\uFFFD");
    expect(pieces).toContain("🙂");
  });

  it("the last group keeps only the released part of its text (a stop sequence cut it)", () => {
    const tokens = loaded.model.tokenize("hello world");
    const released = "hello wor";
    const pieces = splitTextByTokens(
      loaded.model,
      tokens.map((token) => [token]),
      released,
      [],
    );
    expect(pieces.join("")).toBe(released);
  });
});
