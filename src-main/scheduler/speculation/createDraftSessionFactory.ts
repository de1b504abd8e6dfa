import { DraftSequenceTokenPredictor, type LlamaContext, type TokenPredictor } from "node-llama-cpp";
import { SpeculationSession } from "./SpeculationSession.js";
import type { SpeculationSessionFactory } from "./SpeculationSessionFactory.js";
import { trackSequenceActivity } from "./trackSequenceActivity.js";

export interface DraftSessionOptions {
  /** Most tokens drafted ahead per step. Defaults to `16` (node-llama-cpp's default). */
  maxTokens?: number;
  /** Drafted tokens the target waits for before each decode. Defaults to `1`; 0 would leave predictions unused. */
  minTokens?: number;
  /** Draft tokens below this confidence end a draft run. Defaults to node-llama-cpp's `0.6`. */
  minConfidence?: number;
}

/**
 * Draft-model speculation. Only a singleton batch speculates, so one draft sequence serves the
 * whole target context; every session starts on it from an empty state, after the previous
 * session's in-flight draft work has finished, so nothing of an earlier timeline is reused.
 */
export function createDraftSessionFactory(
  draftContext: LlamaContext,
  options: DraftSessionOptions = {},
): SpeculationSessionFactory {
  const draft = trackSequenceActivity(draftContext.getSequence());
  const minTokens = Math.max(1, options.minTokens ?? 1);
  const maxTokens = Math.max(minTokens, options.maxTokens ?? 16);
  // Sessions are opened one after another; this chain keeps a new one from touching the draft
  // sequence before the last one's teardown finished.
  let turn: Promise<void> = Promise.resolve();

  const release = (predictor: TokenPredictor | undefined) => {
    void predictor?.dispose();
    turn = turn.then(draft.idle);
  };

  return {
    kind: "draft",
    open: (init) =>
      new SpeculationSession(
        init.owner,
        "draft",
        async (isClosed) => {
          await turn;
          await draft.idle();
          if (isClosed() || draftContext.disposed) return undefined;
          await draft.sequence.clearHistory();
          const predictor = new DraftSequenceTokenPredictor(draft.sequence, {
            minTokens,
            maxTokens,
            minConfidence: options.minConfidence,
            // A token bias belongs to the target's tokenizer; the draft model would reject it.
            evaluateOptions: { tokenBias: undefined },
          });
          try {
            await predictor.reset({
              stateTokens: init.stateTokens.slice(),
              evaluateOptions: init.evaluateOptions,
              targetSequence: init.targetSequence,
            });
          } catch (error) {
            release(predictor);
            throw error;
          }
          return predictor;
        },
        release,
      ),
    dispose: async () => {
      await turn;
      await draft.idle();
    },
  };
}
