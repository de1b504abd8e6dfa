import { describe, expect, it } from "vitest";
import type { TokenLogprob } from "../../../src-main/scheduler/GenerationRequest.js";
import { toCompletionLogprobs } from "../../../src-main/server/openai/toCompletionLogprobs.js";

const entry = (token: string, logprob: number, top: [string, number][] = []): TokenLogprob => ({
  token,
  logprob,
  bytes: [...Buffer.from(token)],
  top: top.map(([text, value]) => ({ token: text, logprob: value, bytes: [...Buffer.from(text)] })),
});

describe("toCompletionLogprobs (the legacy shape)", () => {
  it("offsets count characters from the given start; the chosen token is always among the candidates", () => {
    const result = toCompletionLogprobs(
      [
        entry("🙂", -0.5, [
          ["x", -0.1],
          ["y", -0.2],
        ]),
        entry("é", -0.25, [["é", -0.25]]),
        entry(" ok", -1),
      ],
      3,
    );
    expect(result.tokens).toEqual(["🙂", "é", " ok"]);
    expect(result.token_logprobs).toEqual([-0.5, -0.25, -1]);
    // One code point each for the emoji and é (not UTF-16 units).
    expect(result.text_offset).toEqual([3, 4, 5]);
    expect(result.top_logprobs[0]).toEqual({ x: -0.1, y: -0.2, "🙂": -0.5 });
    expect(result.top_logprobs[1]).toEqual({ é: -0.25 });
    expect(result.top_logprobs[2]).toEqual({ " ok": -1 });
  });

  it("keeps the likelier of two candidates that read the same, and a token named __proto__", () => {
    const result = toCompletionLogprobs([
      entry("__proto__", -2, [
        ["", -0.1],
        ["", -0.3],
      ]),
    ]);
    const candidates = result.top_logprobs[0]!;
    expect(candidates[""]).toBe(-0.1);
    expect(Object.keys(candidates).sort()).toEqual(["", "__proto__"]);
    expect(candidates.__proto__).toBe(-2);
    expect(JSON.stringify(candidates)).toBe('{"":-0.1,"__proto__":-2}');
  });
});
