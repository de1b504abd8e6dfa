import {
  getLlama,
  LlamaChatSession,
  type Llama,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BpeTokenizer } from "../../../src-main/testModel/BpeTokenizer.js";
import { testModelProgram } from "../../../src-main/testModel/makeTestModel.js";
import { predictNextToken } from "../../../src-main/testModel/predictNextToken.js";
import { testModelShapes } from "../../../src-main/testModel/testModelShapes.js";
import { testTokenizer } from "../../../src-main/testModel/testTokenizer.js";
import { ensureTestModels } from "../../helpers/testModels.js";

const program = testModelProgram();
const tokenizer = new BpeTokenizer(testTokenizer());
const mainFeatures = testModelShapes.test.features;
const allProbabilities = { temperature: 1, topK: 1024, topP: 1, minP: 0 };

let llama: Llama;
let main: LlamaModel;
let draft: LlamaModel;

beforeAll(async () => {
  const paths = await ensureTestModels();
  llama = await getLlama({ gpu: false, build: "never", logLevel: "warn" as never, progressLogs: false });
  const started = performance.now();
  main = await llama.loadModel({ modelPath: paths.main });
  console.info(`test model loaded in ${(performance.now() - started).toFixed(0)} ms`);
  draft = await llama.loadModel({ modelPath: paths.draft });
});

afterAll(async () => {
  await main?.dispose();
  await draft?.dispose();
  await llama?.dispose();
});

/** Greedy steps through `controlledEvaluate`, with the logit lead of the top token at each step. */
async function greedy(
  model: LlamaModel,
  prompt: Token[],
  steps: number,
  sequence?: LlamaContextSequence,
): Promise<{ tokens: Token[]; margins: number[] }> {
  const context = sequence ? undefined : await model.createContext({ contextSize: 1024, threads: 1 });
  const target = sequence ?? context!.getSequence();
  const tokens: Token[] = [];
  const margins: number[] = [];
  const next = { generateNext: { token: true, probabilities: true, options: allProbabilities } };
  let input: Parameters<typeof target.controlledEvaluate>[0] = prompt.map((token, i) =>
    i === prompt.length - 1 ? [token, next] : token,
  );
  for (let step = 0; step < steps; step++) {
    const result = await target.controlledEvaluate(input);
    const ranked = [...result[input.length - 1]!.next.probabilities!.entries()];
    margins.push(Math.log(ranked[0][1] / ranked[1][1]));
    tokens.push(ranked[0][0]);
    input = [[ranked[0][0], next]];
  }
  await context?.dispose();
  return { tokens, margins };
}

function predicted(prompt: Token[], steps: number): Token[] {
  const context: number[] = [...prompt];
  for (let step = 0; step < steps; step++) context.push(predictNextToken(program, context, mainFeatures));
  return context.slice(prompt.length) as Token[];
}

describe("generated test model in llama.cpp", () => {
  it("tokenizes exactly like the trained tokenizer and round-trips text", () => {
    for (const text of [
      "Hello world! def add(a, b):\n    return a + b\n",
      '{"x": [1, 2.5, -3]} Ünïcödé 🦜 中文\t tabs  ',
      "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n",
    ]) {
      const tokens = main.tokenize(text, true);
      expect(Array.from(tokens)).toEqual(tokenizer.encode(text));
      expect(main.detokenize(tokens, true)).toBe(text);
    }
    expect(main.tokens.eos).toBe(program.endToken);
  });

  it("decodes greedily exactly as its program predicts, with well separated logits", async () => {
    const prompt = main.tokenize(
      "<|im_start|>user\nWrite a poem about the sea.<|im_end|>\n<|im_start|>assistant\n",
      true,
    );
    const { tokens, margins } = await greedy(main, prompt, 300);
    // Steps where the program stops are left in: the stop must win by the same margin.
    expect(tokens).toEqual(predicted(prompt, 300));
    const minimum = Math.min(...margins);
    console.info(`minimum top-1 lead over 300 greedy steps: ${minimum.toFixed(3)} logits`);
    expect(minimum).toBeGreaterThan(3);
  });

  it("gives the same greedy tokens and probabilities when two sequences share a batch", async () => {
    const context = await main.createContext({ contextSize: 2048, sequences: 2, threads: 1 });
    const prompts = ["The capital of France is", "def fibonacci(n):\n"].map((text) => main.tokenize(text));
    const results = await Promise.all(
      prompts.map((prompt) => greedy(main, prompt, 64, context.getSequence())),
    );
    results.forEach((result, i) => expect(result.tokens).toEqual(predicted(prompts[i], 64)));
    // Not only the same tokens: the same probabilities, bit for bit, as each prompt alone.
    for (const [i, prompt] of prompts.entries())
      expect(results[i].margins).toEqual((await greedy(main, prompt, 64)).margins);
    expect(results[0].tokens).not.toEqual(results[1].tokens);
    await context.dispose();
  });

  it("chats through LlamaChatSession with its ChatML template and stops at <|im_end|>", async () => {
    const context = await main.createContext({ contextSize: 2048, threads: 1 });
    const session = new LlamaChatSession({
      contextSequence: context.getSequence(),
      systemPrompt: "You are a test.",
    });
    expect(session.chatWrapper.wrapperName).toBe("ChatML");
    const message = "Write a haiku about birds.";
    const { contextText } = session.chatWrapper.generateContextState({
      chatHistory: [
        { type: "system", text: "You are a test." },
        { type: "user", text: message },
        { type: "model", response: [] },
      ],
    });
    const prompt = contextText.tokenize(main.tokenizer);
    const expected = predicted(prompt, 200);
    const end = expected.indexOf(program.endToken as Token);
    expect(end).toBeGreaterThan(0); // this message's answer is known to stop
    const answer = await session.prompt(message, { maxTokens: 200 });
    expect(answer).toBe(tokenizer.decode(expected.slice(0, end)));
    await context.dispose();
  });

  it("has a draft model that mostly agrees with it", async () => {
    const prompt = main.tokenize(
      "<|im_start|>user\nTell me a story.<|im_end|>\n<|im_start|>assistant\n",
      true,
    );
    const trajectory = predicted(prompt, 200);
    const context = await draft.createContext({ contextSize: 1024, threads: 1 });
    const all = [...prompt, ...trajectory];
    const results = await context
      .getSequence()
      .controlledEvaluate(
        all.map((token, i) =>
          i >= prompt.length - 1 && i < all.length - 1 ? [token, { generateNext: { token: true } }] : token,
        ),
      );
    let agree = 0;
    for (let i = 0; i < trajectory.length; i++)
      if (results[prompt.length - 1 + i]?.next.token === trajectory[i]) agree++;
    console.info(`draft agrees with the main model on ${agree} of ${trajectory.length} greedy tokens`);
    expect(agree / trajectory.length).toBeGreaterThan(0.6);
    expect(agree).toBeLessThan(trajectory.length);
    await context.dispose();
  });

  it("generates fast on one thread", async () => {
    const context = await main.createContext({ contextSize: 1024, threads: 1 });
    const started = performance.now();
    let count = 0;
    // yieldEogToken keeps evaluate() going past <|im_end|>, so this always measures 256 tokens.
    for await (const token of context
      .getSequence()
      .evaluate(main.tokenize("Hello"), { yieldEogToken: true })) {
      expect(token).toBeTypeOf("number");
      if (++count === 256) break;
    }
    expect(count).toBe(256);
    const seconds = (performance.now() - started) / 1000;
    console.info(`256 tokens in ${seconds.toFixed(2)} s: ${(256 / seconds).toFixed(0)} tok/s (threads: 1)`);
    await context.dispose();
  });
});
