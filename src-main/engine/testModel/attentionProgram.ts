import type { TestModelShape } from "./testModelShapes.js";

/** Relative weights of the RoPE pairs (highest frequencies first) the previous-token head uses. */
const previousPairWeights = [3, 2, 1, 1, 1, 1, 1];

/** Attention score lead (in logits) of the wanted position over any other; e^-30 leaks nothing measurable. */
const scoreLead = 30;

export interface AttentionProgram {
  headDimension: number;
  previousHead: number;
  globalHead: number;
  previousKvHead: number;
  globalKvHead: number;
  /** q and k amplitude per RoPE pair of the previous-token head (q is rotated back by one position). */
  previousAmplitudes: number[];
  /** Query amplitude on the global head's last (slowest) RoPE pair. */
  globalQuery: number;
}

/**
 * How the first layer's two program heads are set up. The previous-token head scores positions
 * by Σ a_j² cos(θ_j (Δ - 1)): highest at Δ = 1, the previous position. The global head's key is the
 * token's priority angle on the slowest RoPE pair, which barely turns over the whole context, so
 * it attends to the highest-priority token wherever it is.
 */
export function attentionProgram(shape: TestModelShape): AttentionProgram {
  const headDimension = shape.embeddingLength / shape.headCount;
  const groupSize = shape.headCount / shape.headCountKv;
  const globalHead = shape.headCount / 2;
  if (!Number.isInteger(groupSize) || Math.floor(globalHead / groupSize) === 0)
    throw new Error("The program needs the two heads to use different KV heads");

  const thetas = previousPairWeights.map((_, pair) => shape.ropeFreqBase ** ((-2 * pair) / headDimension));
  const total = previousPairWeights.reduce((sum, weight) => sum + weight, 0);
  const score = (offset: number): number =>
    previousPairWeights.reduce(
      (sum, weight, pair) => sum + (weight / total) * Math.cos(thetas[pair] * offset),
      0,
    );
  let worst = score(-1);
  for (let offset = 1; offset < shape.contextLength; offset++) worst = Math.max(worst, score(offset));
  const gap = 1 - worst;
  if (gap < 0.1) throw new Error(`Previous-token head separates positions by only ${gap}`);
  const scoreScale = (scoreLead / gap) * Math.sqrt(headDimension);

  // Priority levels are 1/31 of a quarter turn apart; the slowest pair turns at most `drift` over the context.
  const slowest = shape.ropeFreqBase ** (-(headDimension - 2) / headDimension);
  const drift = slowest * shape.contextLength;
  const levelStep = Math.PI / 2 / 31;
  if (drift > levelStep / 2) throw new Error("RoPE base too small for the global head over this context");
  const minimumCosineStep = Math.sin(Math.PI / 4) * (levelStep - drift);

  return {
    headDimension,
    previousHead: 0,
    globalHead,
    previousKvHead: 0,
    globalKvHead: Math.floor(globalHead / groupSize),
    previousAmplitudes: previousPairWeights.map((weight) => Math.sqrt((weight / total) * scoreScale)),
    globalQuery: (scoreLead / minimumCosineStep) * Math.sqrt(headDimension),
  };
}
