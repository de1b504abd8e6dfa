import type { LlamaContextSequence, SequenceEvaluateOptions, Token } from "node-llama-cpp";
import type { SpeculationKind, SpeculationSession } from "./SpeculationSession.js";

/** What a fresh session is built from: the owner's timeline as the gated predictor knows it now. */
export interface SpeculationSessionInit {
  owner: string;
  /** The owner's current timeline (evaluated tokens plus the one about to be evaluated). */
  stateTokens: readonly Token[];
  /** The tokens of the last user input (prompt lookup searches them). */
  inputTokens: readonly Token[];
  evaluateOptions: Readonly<SequenceEvaluateOptions>;
  targetSequence: LlamaContextSequence;
}

/** Opens fresh speculation sessions for one model's sequences. */
export interface SpeculationSessionFactory {
  readonly kind: SpeculationKind;
  open(init: SpeculationSessionInit): SpeculationSession;
  /** Waits for in-flight speculative work and frees what the factory holds. */
  dispose(): Promise<void>;
}
