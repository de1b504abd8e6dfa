import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import {
  DraftSequenceTokenPredictor,
  LlamaCompletion,
  TokenPredictor,
  type LlamaContextSequence,
  type SequenceEvaluateOptions,
  type Token,
} from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEndOfGenerationBias } from "../../../src-main/scheduler/createEndOfGenerationBias.js";
import { createSchedulerFixture, greedyRequest, type SchedulerFixture } from "./schedulerFixture.js";

/**
 * `patches/node-llama-cpp+3.21.1.patch`: upstream 3.21.1 never fills `validatedTokens` in
 * `LlamaContextSequence._speculativeEvaluate`, so every drafted token after the first of a decode
 * is compared with `undefined` and refuted: at most one drafted token is accepted per target
 * decode. With the model drafting for itself under greedy sampling every draft is right, so the
 * patched library accepts several per decode; the unpatched one cannot, whatever the timing.
 */

/** Delegates to a real predictor and counts target decodes (the library asks once per decode). */
class CountingPredictor extends TokenPredictor {
  decodesWithPredictions = 0;
  constructor(private readonly inner: TokenPredictor) {
    super();
  }
  override reset(params: {
    targetSequence: LlamaContextSequence;
    stateTokens: Token[];
    evaluateOptions: Readonly<SequenceEvaluateOptions>;
  }) {
    return this.inner.reset(params);
  }
  override pushTokens(tokens: Token[]) {
    this.inner.pushTokens(tokens);
  }
  override async predictTokens() {
    const tokens = await this.inner.predictTokens();
    if (tokens.length > 0) this.decodesWithPredictions += 1;
    return tokens;
  }
  override stop(untilPredictionsExhausted?: boolean) {
    return this.inner.stop(untilPredictionsExhausted);
  }
  override updateInputTokens(tokens: Token[]) {
    this.inner.updateInputTokens(tokens);
  }
  override dispose() {
    return this.inner.dispose();
  }
}

describe("node-llama-cpp speculative validation patch", () => {
  let fixture: SchedulerFixture;

  beforeAll(async () => {
    fixture = await createSchedulerFixture(
      {
        self: {
          file: "main",
          settings: {
            context_size: 1024,
            max_concurrent_requests: 1,
            speculative: { mode: "draft", draftModel: "self", minDraftTokens: 8, maxDraftTokens: 16 },
          },
        },
      },
      // Draft every token: confidence cut-offs would make the count depend on the model's logits.
      { draftMinConfidence: 0 },
    );
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it("is applied to the installed library (patch-package runs on install)", async () => {
    const require = createRequire(import.meta.url);
    const entry = require.resolve("node-llama-cpp");
    const file = path.join(path.dirname(entry), "evaluator/LlamaContext/LlamaContext.js");
    const source = await readFile(file, "utf8");
    const draft = await readFile(
      path.join(path.dirname(file), "tokenPredictors/DraftSequenceTokenPredictor.js"),
      "utf8",
    );
    const applied =
      source.includes("validatedTokens.push([evalTokens[i], resultToken]);") &&
      draft.includes("if (this._minTokensCallbacks.length > 0) {");
    expect(applied, "node-llama-cpp is unpatched: run `npx patch-package`").toBe(true);
  });

  it("accepts several drafted tokens per target decode (self-draft, greedy)", async () => {
    const { scheduler, engine } = fixture;
    await engine.load("self");
    const loaded = await engine.acquire("self");
    try {
      const target = await loaded.model.createContext({ contextSize: 1024, threads: 1 });
      const draft = await loaded.model.createContext({ contextSize: 1024, threads: 1 });
      const predictor = new CountingPredictor(
        new DraftSequenceTokenPredictor(draft.getSequence(), {
          minTokens: 8,
          maxTokens: 16,
          minConfidence: 0,
        }),
      );
      const sequence = target.getSequence({ tokenPredictor: predictor });
      const completion = new LlamaCompletion({ contextSequence: sequence });
      let generated = 0;
      await completion.generateCompletion("the quick brown fox", {
        maxTokens: 120,
        temperature: 0,
        repeatPenalty: false,
        // Run to maxTokens whatever the generated model's stop rule says.
        tokenBias: createEndOfGenerationBias(loaded.model),
        onToken: (tokens) => (generated += tokens.length),
      });
      const { validated, refuted } = sequence.tokenPredictions;
      const decodes = predictor.decodesWithPredictions;
      // Unpatched: validated <= decodes, always (one comparison per decode can succeed); measured
      // on the test model: 37 validated / 256 refuted in 42 decodes, against 80 / 0 in 10 patched.
      expect(generated).toBeGreaterThanOrEqual(100);
      expect(validated).toBeGreaterThan(2 * decodes);
      // Not zero, though draft and target are one model sampled greedily: on an Intel host
      // (2026-12-02) six runs refuted 0, 0, 16, 24, 48 and 48 drafted tokens (multiples of the
      // 8-token minimum) against 101–112 validated, the count following the timing of the draft's
      // run-ahead. Not numerics: the model's next tokens from 2-, 4-, 8- and 16-token batches equal
      // one-at-a-time greedy at all 59 positions. A lead for the predictor, noted in the README;
      // the unpatched library refutes several times what it validates.
      expect(refuted).toBeLessThan(validated);
      completion.dispose();
      await target.dispose();
      await draft.dispose();
    } finally {
      engine.release(loaded);
    }

    // Through the scheduler: most of the generated tokens come from validated drafts.
    const result = await scheduler.generate(
      greedyRequest(
        "self-draft",
        "self",
        { kind: "text", text: "the quick brown fox" },
        {
          maxTokens: 120,
          ignoreEos: true,
        },
      ),
    );
    expect(result.speculative).toBeDefined();
    expect(result.speculative!.validated).toBeGreaterThan(0.6 * result.usage.completionTokens);
  });

  it("a state saved with a draft's predictions loaded restores without their cells", async () => {
    // The prompt cache saves a sequence as it is when its request ends; with a draft model its
    // cells may include tokens the draft predicted past the last accepted one. Restored with those
    // cells, the sequence held positions its token list did not have, and every later decode on it
    // failed ("inconsistent sequence positions": HTTP 500 until the server restarted and beyond,
    // since the state was saved again).
    const { engine } = fixture;
    await engine.load("self");
    const loaded = await engine.acquire("self");
    const dir = await mkdtemp(path.join(os.tmpdir(), "perch-predictions-"));
    try {
      const target = await loaded.model.createContext({ contextSize: 1024, threads: 1, sequences: 2 });
      const draft = await loaded.model.createContext({ contextSize: 1024, threads: 1 });
      const predictor = new DraftSequenceTokenPredictor(draft.getSequence(), {
        minTokens: 8,
        maxTokens: 16,
        minConfidence: 0,
      });
      const sequence = target.getSequence({ tokenPredictor: predictor });
      const completion = new LlamaCompletion({ contextSequence: sequence });
      await completion.generateCompletion("the quick brown fox", {
        maxTokens: 21,
        temperature: 0,
        repeatPenalty: false,
        tokenBias: createEndOfGenerationBias(loaded.model),
      });
      const internals = (seq: LlamaContextSequence) =>
        seq as unknown as {
          _loadedTokenPredictions: unknown[];
          _sequenceId: number;
          _context: { _ctx: { getSequenceKvCacheMaxPosition(id: number): number } };
        };
      // The case under test: drafted tokens past the accepted ones are still in the cells.
      expect(internals(sequence)._loadedTokenPredictions.length).toBeGreaterThan(0);
      const tokens = sequence.contextTokens;
      const file = path.join(dir, "state.bin");
      await sequence.saveStateToFile(file);

      const restored = target.getSequence();
      await restored.loadStateFromFile(file, { acceptRisk: true });
      expect(restored.contextTokens).toEqual(tokens);
      const { _context, _sequenceId } = internals(restored);
      expect(_context._ctx.getSequenceKvCacheMaxPosition(_sequenceId)).toBe(tokens.length - 1);
      // And it decodes on: a different continuation than the one the draft predicted.
      const other = new LlamaCompletion({ contextSequence: restored });
      await expect(
        other.generateCompletion("the quick brown fox jumps", { maxTokens: 8, temperature: 0 }),
      ).resolves.toEqual(expect.any(String));
      other.dispose();
      completion.dispose();
      await target.dispose();
      await draft.dispose();
    } finally {
      engine.release(loaded);
      await rm(dir, { recursive: true, force: true });
    }
  });
});
