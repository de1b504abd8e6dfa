import type { LlamaContextSequence } from "node-llama-cpp";
import type { GatedTokenPredictor } from "./speculation/GatedTokenPredictor.js";

/** One sequence of a model's context and the request using it, if any. */
export interface SequenceSlot {
  /** Also the sequence's id in the context: slots are created in order on a fresh context. */
  index: number;
  sequence: LlamaContextSequence;
  /** Absent when the model does not speculate. */
  predictor?: GatedTokenPredictor;
  /** Set from the moment the slot is handed to a request until the request gave it back. */
  requestId?: string;
  lastUsedAt: number;
}
