import { describe, expect, it } from "vitest";
import { hasThinking, splitThinking } from "../../../../src-main/evals/runner/splitThinking.js";

describe("splitThinking", () => {
  it("leaves outputs without reasoning alone", () => {
    expect(splitThinking("The answer is 42.")).toEqual({ reasoning: null, answer: "The answer is 42." });
    expect(hasThinking("def f():\n    return 1")).toBe(false);
  });

  it("removes <think> blocks, also several", () => {
    expect(splitThinking("<think>let me see</think>\n\nThe answer is (B)")).toEqual({
      reasoning: "let me see",
      answer: "The answer is (B)",
    });
    expect(splitThinking("<think>a</think>x <think>b</think>y").answer).toBe("x y");
  });

  it("treats an unclosed block as reasoning that ran out of tokens", () => {
    expect(splitThinking("<think>still going and going")).toEqual({
      reasoning: "still going and going",
      answer: "",
    });
  });

  it("handles a block the chat template opened in the prompt", () => {
    expect(splitThinking("reasoning here\n</think>\n\n#### 18")).toEqual({
      reasoning: "reasoning here",
      answer: "#### 18",
    });
  });

  it("knows other reasoning formats", () => {
    expect(splitThinking("[THINK]hmm[/THINK]B").answer).toBe("B");
    expect(splitThinking("<thinking>hmm</thinking>B").answer).toBe("B");
    expect(splitThinking("◁think▷hmm◁/think▷B").answer).toBe("B");
    const harmony =
      "<|channel|>analysis<|message|>We need to add.<|end|><|start|>assistant<|channel|>final<|message|>The answer is 4.<|return|>";
    expect(splitThinking(harmony)).toEqual({ reasoning: "We need to add.", answer: "The answer is 4." });
    expect(hasThinking("<|channel|>analysis<|message|>cut off")).toBe(true);
  });

  it("keeps code that merely mentions the word think", () => {
    const code = "```python\ndef think(x):\n    return x\n```";
    expect(splitThinking(code)).toEqual({ reasoning: null, answer: code });
  });
});
