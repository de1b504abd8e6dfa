import { describe, expect, it } from "vitest";
import { BpeTokenizer } from "../../../src-main/testModel/BpeTokenizer.js";
import { defaultTestModelSeed, testModelProgram } from "../../../src-main/testModel/makeTestModel.js";
import { predictNextToken } from "../../../src-main/testModel/predictNextToken.js";
import { testModelShapes } from "../../../src-main/testModel/testModelShapes.js";
import { testModelTensorPlans } from "../../../src-main/testModel/testModelTensorPlans.js";
import { testTokenizer } from "../../../src-main/testModel/testTokenizer.js";
import { ReferenceLlama } from "../../helpers/ReferenceLlama.js";

const program = testModelProgram();
const tokenizer = new BpeTokenizer(testTokenizer());
const main = testModelShapes.test.features;
const draft = testModelShapes.draft.features;
const chat = (message: string): string =>
  `<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\n${message}<|im_end|>\n<|im_start|>assistant\n`;
const prompts = [
  "Hello",
  "def add(a, b):\n",
  '{"a": 1}',
  ...["Write a poem about the sea.", "Tell me a story.", "What is 2+2?", "Hi"].map(chat),
];

/** Greedy continuation per the program; `<|im_end|>` ends it unless `ignoreEnd`. */
function continuation(prompt: string, steps: number, ignoreEnd = false): number[] {
  const context = tokenizer.encode(prompt);
  const start = context.length;
  for (let i = 0; i < steps; i++) {
    const next = predictNextToken(program, context, main);
    if (next === program.endToken && !ignoreEnd) break;
    context.push(next === program.endToken ? predictNextToken(program, context, draft) : next);
  }
  return context.slice(start);
}

describe("the test model's program", () => {
  it("writes varied text that does not settle into a short loop", () => {
    for (const prompt of prompts) {
      const output = continuation(prompt, 600, true);
      expect(new Set(output).size).toBeGreaterThan(150);
      const tail = output.slice(-100).join(",");
      for (let period = 1; period <= 200; period++)
        expect(output.slice(-100 - period, -period).join(",")).not.toBe(tail);
    }
  });

  it("never chooses invalid UTF-8 bytes, control characters or special tokens, and sometimes stops", () => {
    const avoided = new Set(
      testTokenizer().specialTokens.map((token) => testTokenizer().tokens.indexOf(token)),
    );
    for (let byte = 0x80; byte < 0x100; byte++) avoided.add(byte);
    let stopped = 0;
    for (const prompt of prompts) {
      const output = continuation(prompt, 400);
      for (const token of output) expect(avoided.has(token)).toBe(false);
      if (output.length < 400) stopped++;
    }
    expect(stopped).toBeGreaterThanOrEqual(3);
  });

  it("answers different chat messages differently", () => {
    const answers = new Set(prompts.map((prompt) => continuation(prompt, 12).join(",")));
    expect(answers.size).toBe(prompts.length);
  });

  it("has a draft that agrees with the main model most of the time, but not always", () => {
    let agree = 0;
    let total = 0;
    for (const prompt of prompts) {
      const context = tokenizer.encode(prompt);
      for (const token of continuation(prompt, 200)) {
        if (predictNextToken(program, context, draft) === token) agree++;
        total++;
        context.push(token);
      }
    }
    expect(agree / total).toBeGreaterThan(0.7);
    expect(agree / total).toBeLessThan(0.95);
  });
});

describe.each(["test", "draft"] as const)("the %s model's weights", (variant) => {
  it("compute the program with well separated logits (float64 reference with ggml's rounding)", () => {
    const shape = testModelShapes[variant];
    const plans = testModelTensorPlans(shape, program);
    const reference = new ReferenceLlama(shape, plans, defaultTestModelSeed, { quantizeActivations: true });
    const context = tokenizer.encode(chat("Write a poem about the sea."));
    let logits: Float64Array = new Float64Array();
    for (const token of context) logits = reference.next(token);
    for (let step = 0; step < 40; step++) {
      const ranked = [...logits.keys()].sort((a, b) => logits[b] - logits[a]);
      expect(ranked[0]).toBe(predictNextToken(program, context, shape.features));
      expect(logits[ranked[0]] - logits[ranked[1]]).toBeGreaterThan(3);
      context.push(ranked[0]);
      logits = reference.next(ranked[0]);
    }
  });
});
