import { InputLookupTokenPredictor } from "node-llama-cpp";
import { SpeculationSession } from "./SpeculationSession.js";
import type { SpeculationSessionFactory } from "./SpeculationSessionFactory.js";

export interface LookupSessionOptions {
  /** Most tokens copied ahead from the prompt per step. Defaults to `3` (node-llama-cpp's default). */
  maxTokens?: number;
  /** Shortest continuation worth proposing. Defaults to `1`. */
  minTokens?: number;
}

/** Prompt n-gram lookup (`InputLookupTokenPredictor`): no model, no background work. */
export function createLookupSessionFactory(options: LookupSessionOptions = {}): SpeculationSessionFactory {
  const minTokens = Math.max(1, options.minTokens ?? 1);
  const maxTokens = Math.max(minTokens, options.maxTokens ?? 3);
  return {
    kind: "lookup",
    open: (init) =>
      new SpeculationSession(
        init.owner,
        "lookup",
        async () => {
          const predictor = new InputLookupTokenPredictor({
            predictionLength: { min: minTokens, max: maxTokens },
          });
          predictor.updateInputTokens(init.inputTokens.slice());
          predictor.reset({ stateTokens: init.stateTokens.slice() });
          return predictor;
        },
        (predictor) => void predictor?.dispose(),
      ),
    dispose: async () => undefined,
  };
}
