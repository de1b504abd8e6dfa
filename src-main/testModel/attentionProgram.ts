import { programLags } from "./programConstants.js";
import type { TestModelShape } from "./testModelShapes.js";

/**
 * Relative weights of the 7 fastest RoPE pairs for the positional heads, per head dimension, found
 * by search: Σ w_j cos(θ_j x) peaks at x = 0 with a lead over every other x in the context and
 * rises strictly over x = -6…0, so a head whose target position does not exist yet falls back to
 * position 0 instead of blurring several.
 */
const positionalPairWeights: Record<number, number[]> = {
  32: [1, 4, 2, 1, 0, 1, 0],
  64: [1, 1, 4, 3, 1, 0, 1],
};

/** Attention score lead (in logits) of the wanted position over any other; e^-30 leaks nothing measurable. */
const scoreLead = 30;
/** Amplitude of every positional key pair. */
const positionalKey = 8;
/** Priority levels are this far apart on the global head's angle. */
const levelStep = Math.PI / 2 / 31;

export interface PositionalHead {
  head: number;
  /** Index into `programLags`. */
  lagIndex: number;
  lag: number;
}

export interface AttentionProgram {
  headDimension: number;
  /** Query heads that copy the code of the token `lag` positions back. */
  positionalHeads: PositionalHead[];
  /** Query amplitude per positional RoPE pair (the query is the key turned back by `lag` positions). */
  positionalQuery: number[];
  positionalKey: number;
  globalHead: number;
  /** Query amplitude on the global head's last (slowest) RoPE pair. */
  globalQuery: number;
}

/**
 * How the first layer's program heads are set up. Every KV head carries the same positional keys
 * on its fast pairs and the token's priority angle on its slowest pair (which barely turns over
 * the whole context), so each query head picks what it reads: a fixed offset back, or the
 * highest-priority token anywhere.
 */
export function attentionProgram(shape: TestModelShape): AttentionProgram {
  const headDimension = shape.embeddingLength / shape.headCount;
  const weights = positionalPairWeights[headDimension];
  if (!weights) throw new Error(`No positional weights for head dimension ${headDimension}`);
  const lags = programLags.slice(1);
  if (shape.headCount < lags.length + 1)
    throw new Error(`The program needs ${lags.length + 1} attention heads`);

  const thetas = weights.map((_, pair) => shape.ropeFreqBase ** ((-2 * pair) / headDimension));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const score = (offset: number): number =>
    weights.reduce((sum, weight, pair) => sum + (weight / total) * Math.cos(thetas[pair] * offset), 0);
  const deepest = Math.max(...lags);
  let lead = Infinity;
  for (let offset = -deepest; offset < shape.contextLength; offset++)
    if (offset !== 0) lead = Math.min(lead, 1 - score(offset));
  for (let offset = -deepest; offset < 0; offset++) lead = Math.min(lead, score(offset + 1) - score(offset));
  if (lead < 0.08) throw new Error(`Positional heads separate positions by only ${lead}`);
  const scoreScale = (scoreLead / lead) * Math.sqrt(headDimension);

  const slowest = shape.ropeFreqBase ** (-(headDimension - 2) / headDimension);
  const drift = slowest * shape.contextLength;
  if (drift > levelStep / 2) throw new Error("RoPE base too small for the global head over this context");
  const minimumCosineStep = Math.sin(Math.PI / 4) * (levelStep - drift);

  return {
    headDimension,
    positionalHeads: lags.map((lag, index) => ({ head: index, lagIndex: index + 1, lag })),
    positionalQuery: weights.map((weight) => ((weight / total) * scoreScale) / positionalKey),
    positionalKey,
    globalHead: shape.headCount - 1,
    globalQuery: (scoreLead / minimumCosineStep) * Math.sqrt(headDimension),
  };
}

/** The priority angle of a level with rank `rank` (0 = lowest of 32): higher rank, smaller angle. */
export function priorityAngle(rank: number): number {
  return Math.PI / 4 + levelStep * (31 - rank);
}
