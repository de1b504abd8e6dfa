import type { Token } from "node-llama-cpp";
import type { SequenceSlot } from "./SequenceSlot.js";

/**
 * A cached prefix this much longer than the gap-free slot's is worth the split batches a gap costs
 * while it lasts. One more ubatch per step reads all the weights again (on a 2-core CPU, a
 * realistic ~360M model: ~30 ms a step), while re-evaluating a prompt costs about a millisecond
 * a token there, so only a long prefix pays for a gap.
 */
export const prefixWorthAGap = 512;

/**
 * A cached prefix counts only when it is more than this fraction of the prompt (llama-server's
 * `--slot-prompt-similarity` default). Below it, it is what every prompt shares (the chat
 * template's opening, a short system prompt): following it would pile every new conversation
 * onto the same sequence and overwrite the one conversation it holds, while the least recently
 * used sequence keeps the others' prefixes for their return.
 */
export const minimumPromptSimilarity = 0.1;

/**
 * Chooses a free slot for a prompt. First, one that keeps the busy sequences on as few runs of
 * consecutive ids as possible: node-llama-cpp keeps one KV stream per sequence, and llama.cpp then
 * puts only consecutive sequence ids into one ubatch, so every extra run is one more pass over the
 * weights per decode step (README: concurrent decoding). Among those, the slot already holding the
 * longest prefix of the prompt (prefix reuse; see `minimumPromptSimilarity`), else the least
 * recently used one, so other slots' cached prefixes live longest. A slot with a much longer cached prefix (`prefixWorthAGap`) wins
 * anyway.
 */
export function pickSlot(
  slots: readonly SequenceSlot[],
  promptTokens: readonly Token[],
): SequenceSlot | undefined {
  const busy = new Set(slots.filter((slot) => slot.requestId !== undefined).map((slot) => slot.index));
  const candidates = slots
    .filter((slot) => slot.requestId === undefined)
    .map((slot) => ({
      slot,
      runs: countRuns(new Set([...busy, slot.index])),
      shared: worthReusing(
        sharedPrefixLength(slot.sequence.contextTokens, promptTokens),
        promptTokens.length,
      ),
    }));
  if (candidates.length === 0) return undefined;
  const better = (a: (typeof candidates)[number], b: (typeof candidates)[number]) =>
    a.runs !== b.runs
      ? a.runs < b.runs
      : a.shared !== b.shared
        ? a.shared > b.shared
        : a.slot.lastUsedAt < b.slot.lastUsedAt;
  const best = candidates.reduce((chosen, candidate) => (better(candidate, chosen) ? candidate : chosen));
  const longest = candidates.reduce((chosen, candidate) =>
    candidate.shared > chosen.shared ? candidate : chosen,
  );
  return longest.shared - best.shared >= prefixWorthAGap ? longest.slot : best.slot;
}

function worthReusing(shared: number, promptLength: number): number {
  return shared > promptLength * minimumPromptSimilarity ? shared : 0;
}

/** Runs of consecutive ids in a set: {0, 1, 3} has two. */
export function countRuns(ids: ReadonlySet<number>): number {
  let runs = 0;
  for (const id of ids) if (!ids.has(id - 1)) runs += 1;
  return runs;
}

export function sharedPrefixLength(a: readonly Token[], b: readonly Token[]): number {
  const limit = Math.min(a.length, b.length);
  let index = 0;
  while (index < limit && a[index] === b[index]) index += 1;
  return index;
}
