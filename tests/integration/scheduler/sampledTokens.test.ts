import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import type {
  GenerationRequest,
  GenerationResult,
  TokenLogprob,
} from "../../../src-main/scheduler/GenerationRequest.js";
import { LlamaCompletion } from "node-llama-cpp";
import { createEndOfGenerationBias } from "../../../src-main/scheduler/createEndOfGenerationBias.js";
import { SampledTokens } from "../../../src-main/scheduler/SampledTokens.js";
import { loadTestModel } from "../../helpers/testModels.js";
import { createSchedulerFixture, greedyRequest, type SchedulerFixture } from "./schedulerFixture.js";

/**
 * Logprobs and completion-token counts come from the tokens the sampler draws on the sequence
 * (`SampledTokens` watching `evaluate`), paired with the text the generators release.
 */

const base: ModelSettings = { context_size: 1024, max_concurrent_requests: 2, max_queue: 8 };
let fixture: SchedulerFixture;

beforeAll(async () => {
  fixture = await createSchedulerFixture({
    off: { file: "main", settings: base },
    "draft-model": { file: "draft", settings: base },
    draft: {
      file: "main",
      settings: { ...base, speculative: { mode: "draft", draftModel: "draft-model", maxDraftTokens: 8 } },
    },
  });
}, 120_000);
afterAll(async () => {
  await fixture?.close();
});

const chat: GenerationRequest["prompt"] = {
  kind: "chat",
  messages: [{ role: "user", content: "copy this line again and then stop" }],
};
const text: GenerationRequest["prompt"] = { kind: "text", text: "alpha beta gamma delta alpha beta" };

async function generate(
  modelId: string,
  prompt: GenerationRequest["prompt"],
  extra: Partial<GenerationRequest> = {},
): Promise<{ result: GenerationResult; streamed: { text: string; logprobs?: TokenLogprob[] }[] }> {
  const streamed: { text: string; logprobs?: TokenLogprob[] }[] = [];
  const result = await fixture.scheduler.generate(
    greedyRequest(`${modelId}-${Math.random()}`, modelId, prompt, {
      maxTokens: 24,
      onText: (piece, logprobs) => streamed.push({ text: piece, logprobs }),
      ...extra,
    }),
  );
  return { result, streamed };
}

function expectGreedyLogprobs(logprobs: TokenLogprob[], answer: string, top: number): void {
  expect(logprobs.length).toBeGreaterThan(0);
  expect(logprobs.map((entry) => entry.token).join("")).toBe(answer);
  for (const entry of logprobs) {
    expect(entry.logprob).toBeLessThanOrEqual(0);
    expect(entry.top).toHaveLength(top);
    expect(Buffer.from(entry.bytes).toString("utf8")).toBe(entry.token);
    const best = Math.max(...entry.top.map((candidate) => candidate.logprob));
    // Greedy picks the most likely token (ties allowed).
    expect(entry.logprob).toBeGreaterThanOrEqual(best - 1e-6);
    for (const candidate of entry.top) expect(candidate.logprob).toBeLessThanOrEqual(0);
  }
}

describe("sampled tokens: logprobs and honest token counts", () => {
  for (const [name, prompt] of [
    ["chat", chat],
    ["text", text],
  ] as const) {
    it(`${name}: greedy logprobs spell the answer, streamed pieces carry the same entries`, async () => {
      const { result, streamed } = await generate("off", prompt, { logprobs: { top: 3 } });
      expectGreedyLogprobs(result.logprobs!, result.text, 3);
      expect(streamed.flatMap((piece) => piece.logprobs ?? [])).toEqual(result.logprobs);
      for (const piece of streamed)
        expect((piece.logprobs ?? []).map((entry) => entry.token).join("")).toBe(piece.text);
      // Every generated token is counted, whether or not logprobs were asked.
      const plain = await generate("off", prompt);
      expect(plain.result.logprobs).toBeUndefined();
      expect(plain.streamed.every((piece) => piece.logprobs === undefined)).toBe(true);
      expect(plain.result.text).toBe(result.text);
      expect(plain.result.usage.completionTokens).toBe(result.usage.completionTokens);
      expect(result.usage.completionTokens).toBeGreaterThanOrEqual(result.logprobs!.length);
    });
  }

  it("a stop sequence's tokens are not among the answer's", async () => {
    const free = await generate("off", text, { logprobs: { top: 1 } });
    const answer = free.result.text;
    // Stop in the middle of the answer: neither the stop text nor anything after it is reported.
    const stop = answer.slice(Math.floor(answer.length / 2), Math.floor(answer.length / 2) + 2);
    const stopped = await generate("off", text, { logprobs: { top: 1 }, stop: [stop] });
    expect(stopped.result.text).toBe(answer.slice(0, answer.indexOf(stop)));
    expect(stopped.result.logprobs!.map((entry) => entry.token).join("")).toBe(stopped.result.text);
    expect(stopped.streamed.flatMap((piece) => piece.logprobs ?? [])).toEqual(stopped.result.logprobs);
  });

  it("a stop sequence that begins inside a token: that token keeps its released text and its logprob", async () => {
    const free = await generate("off", text, { logprobs: { top: 1 } });
    const entries = free.result.logprobs!;
    const answer = free.result.text;
    let position = 0;
    const cut = entries.findIndex((entry) => {
      const start = position;
      position += entry.token.length;
      const stop = entry.token.slice(1);
      return start > 0 && stop.trim().length >= 2 && answer.indexOf(stop) === start + 1;
    });
    expect(cut).toBeGreaterThan(0);
    const stop = entries[cut]!.token.slice(1);
    const stopped = await generate("off", text, { logprobs: { top: 1 }, stop: [stop] });
    const released = stopped.result.logprobs!;
    expect(stopped.result.text).toBe(answer.slice(0, answer.indexOf(stop)));
    expect(released.map((entry) => entry.token).join("")).toBe(stopped.result.text);
    expect(released).toHaveLength(cut + 1);
    expect(released.slice(0, cut)).toEqual(entries.slice(0, cut));
    expect(released[cut]!.token).toBe(entries[cut]!.token.slice(0, 1));
    expect(released[cut]!.logprob).toBe(entries[cut]!.logprob);
  });

  it("watch sees every token of an aborted generation; once restored, the sequence is as it was", async () => {
    const { model, dispose } = await loadTestModel();
    try {
      const context = await model.createContext({ contextSize: 256, threads: 1 });
      const sequence = context.getSequence();
      let counted = 0;
      const sampled = new SampledTokens(model, { top: 1, onToken: () => (counted += 1) });
      const unwatch = sampled.watch(sequence);
      expect(Object.hasOwn(sequence, "evaluate")).toBe(true);
      const completion = new LlamaCompletion({ contextSequence: sequence });
      const controller = new AbortController();
      let released = 0;
      await completion.generateCompletion("alpha beta gamma", {
        maxTokens: 40,
        temperature: 0,
        tokenBias: createEndOfGenerationBias(model),
        signal: controller.signal,
        stopOnAbortSignal: true,
        onToken: (tokens) => {
          released += tokens.length;
          if (released >= 5) controller.abort();
        },
      });
      unwatch();
      expect(Object.hasOwn(sequence, "evaluate")).toBe(false);
      expect(counted).toBeGreaterThanOrEqual(released);
      expect(counted).toBeLessThan(40);
      // Restored: generating again on the sequence is no longer counted.
      const seen = counted;
      await completion.generateCompletion("delta", { maxTokens: 5, temperature: 0 });
      expect(counted).toBe(seen);
      completion.dispose();
      await context.dispose();
    } finally {
      await dispose();
    }
  });

  it("speculative decoding reports the same tokens and (numerically) the same logprobs", async () => {
    const plain = await generate("off", text, { logprobs: { top: 2 } });
    const speculative = await generate("draft", text, { logprobs: { top: 2 } });
    expect(speculative.result.speculative).toBeDefined();
    expect(speculative.result.text).toBe(plain.result.text);
    expect(speculative.result.usage.completionTokens).toBe(plain.result.usage.completionTokens);
    const tokens = (result: GenerationResult) => result.logprobs!.map((entry) => entry.token);
    expect(tokens(speculative.result)).toEqual(tokens(plain.result));
    speculative.result.logprobs!.forEach((entry, index) => {
      expect(entry.logprob).toBeCloseTo(plain.result.logprobs![index]!.logprob, 3);
    });
  });
});
