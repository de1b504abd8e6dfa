import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { GatedTokenPredictor } from "./speculation/GatedTokenPredictor.js";

/** One sequence of a model's context and the request using it, if any. */
export interface SequenceSlot {
  index: number;
  sequence: LlamaContextSequence;
  /** Absent when the model does not speculate. */
  predictor?: GatedTokenPredictor;
  /** Set from the moment the slot is handed to a request until the request gave it back. */
  requestId?: string;
  lastUsedAt: number;
}

/**
 * Chooses a free slot for a prompt: the one already holding the longest prefix of it (prefix
 * reuse), else the least recently used one, so other slots' cached prefixes live longest.
 */
export function pickSlot(
  slots: readonly SequenceSlot[],
  promptTokens: readonly Token[],
): SequenceSlot | undefined {
  let best: { slot: SequenceSlot; shared: number } | undefined;
  for (const slot of slots) {
    if (slot.requestId !== undefined) continue;
    const shared = sharedPrefixLength(slot.sequence.contextTokens, promptTokens);
    if (!best || shared > best.shared || (shared === best.shared && slot.lastUsedAt < best.slot.lastUsedAt)) {
      best = { slot, shared };
    }
  }
  return best?.slot;
}

export function sharedPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index += 1;
  return index;
}
