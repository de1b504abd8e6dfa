import {
  DraftSequenceTokenPredictor,
  getLlama,
  LlamaCompletion,
  LlamaLogLevel,
  type LlamaContext,
  type LlamaModel,
} from "node-llama-cpp";
import { createEndOfGenerationBias } from "../../../src-main/scheduler/createEndOfGenerationBias.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDraftSessionFactory } from "../../../src-main/scheduler/speculation/createDraftSessionFactory.js";
import { ensureTestModels } from "../../helpers/testModels.js";

/**
 * A target decode waits inside `predictTokens` until the draft has `minTokens` predictions.
 * node-llama-cpp 3.21.1's `DraftSequenceTokenPredictor.dispose()` never answers that wait, so a
 * reshape that drops the session at that moment would stall the owner's decode for good.
 */
describe("draft speculation sessions", () => {
  let model: LlamaModel;
  let target: LlamaContext;
  let draft: LlamaContext;

  beforeAll(async () => {
    const paths = await ensureTestModels();
    const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
    model = await llama.loadModel({ modelPath: paths.main });
    target = await model.createContext({ contextSize: 512, threads: 1 });
    draft = await model.createContext({ contextSize: 512, threads: 1 });
  });

  afterAll(async () => {
    await model?.dispose();
  });

  it("closing a session answers a prediction that waits for drafted tokens", async () => {
    const factory = createDraftSessionFactory(draft, { minTokens: 16, maxTokens: 16, minConfidence: 0 });
    const sequence = target.getSequence();
    const stateTokens = model.tokenize("a prompt for the draft model to continue");
    for (let attempt = 0; attempt < 3; attempt++) {
      const session = factory.open({
        owner: `owner-${attempt}`,
        stateTokens,
        inputTokens: [],
        evaluateOptions: { temperature: 0 },
        targetSequence: sequence,
      });
      await session.ready;
      const prediction = session.predict();
      // Let the prediction reach the draft predictor's wait, then drop the session.
      await new Promise((resolve) => setTimeout(resolve, attempt));
      session.close();
      const outcome = await Promise.race([
        prediction.then((tokens) => `answered with ${tokens.length} tokens`),
        new Promise((resolve) => setTimeout(() => resolve("stalled"), 5_000)),
      ]);
      expect(outcome).toBe("answered with 0 tokens");
    }
    // The next session starts only after the dropped one's draft work has stopped.
    const fresh = factory.open({
      owner: "fresh",
      stateTokens,
      inputTokens: [],
      evaluateOptions: { temperature: 0 },
      targetSequence: sequence,
    });
    expect((await fresh.predict()).length).toBeGreaterThanOrEqual(16);
    fresh.close();
    await factory.dispose();
  });

  it("a draft told of a token it did not predict, mid-step, still answers the target's wait (patched library)", async () => {
    // The target may never end the text, the draft (same weights, no bias) predicts the end token:
    // the first mismatch reaches the draft while it is mid-step, which upstream 3.21.1 never recovers from.
    const targetContext = await model.createContext({ contextSize: 1024, threads: 1 });
    const draftContext = await model.createContext({ contextSize: 1024, threads: 1 });
    try {
      const predictor = new DraftSequenceTokenPredictor(draftContext.getSequence(), {
        minTokens: 8,
        maxTokens: 16,
        minConfidence: 0,
        evaluateOptions: { tokenBias: undefined },
      });
      const completion = new LlamaCompletion({
        contextSequence: targetContext.getSequence({ tokenPredictor: predictor }),
      });
      const generation = completion.generateCompletion("the quick brown fox", {
        maxTokens: 120,
        temperature: 0,
        repeatPenalty: false,
        tokenBias: createEndOfGenerationBias(model),
      });
      const outcome = await Promise.race([
        generation.then(() => "finished"),
        new Promise((resolve) => setTimeout(() => resolve("stalled"), 30_000)),
      ]);
      expect(outcome).toBe("finished");
    } finally {
      await targetContext.dispose();
      await draftContext.dispose();
    }
  });
});
