import { GgmlType } from "../gguf/GgmlType.js";
import type { AttentionProgram } from "./attentionProgram.js";
import { programLayout as layout } from "./programLayout.js";
import type { FeedForwardUnit } from "./programUnits.js";
import type { SeededRandom } from "./SeededRandom.js";
import type { TensorPlan } from "./TensorPlan.js";
import type { TestModelShape } from "./testModelShapes.js";
import { codeBits, levelBits } from "./programConstants.js";

export interface LayerPlanInput {
  shape: TestModelShape;
  layer: number;
  attention: AttentionProgram;
  /** Program hidden units of this layer's feed-forward (first rows); the rest are random. */
  units: FeedForwardUnit[];
  /** Expected residual energy (Σx²) of the program plus free dims before the attention and feed-forward norms. */
  energyBeforeAttention: number;
  energyBeforeFeedForward: number;
}

/**
 * Free (random) weights: nothing reading them matters to the program, and everything they write
 * lands in free dimensions, kept small so the normalization scale barely moves.
 */
const amplitude = { queryKey: 2, value: 2, gateUp: 2, attentionOutput: 0.05, down: 0.1 } as const;

/** A norm weight that undoes the expected RMS on program dims and damps free dims to ~0.5. */
export function normPlan(name: string, dimension: number, energy: number): TensorPlan {
  const programWeight = Math.sqrt(energy / dimension);
  return {
    name,
    shape: [dimension],
    type: GgmlType.F32,
    fillRow(row, _index, random) {
      for (let i = 0; i < dimension; i++)
        row[i] = i < layout.size ? programWeight : 0.5 + random.symmetric(0.1);
    },
  };
}

export function layerTensorPlans(input: LayerPlanInput): TensorPlan[] {
  const { shape, layer, attention, units } = input;
  const d = shape.embeddingLength;
  const hd = attention.headDimension;
  const program = layer === 0;
  const name = (suffix: string): string => `blk.${layer}.${suffix}`;
  const random = (row: Float32Array, scale: number, fanIn: number, rng: SeededRandom): void => {
    rng.fillSymmetric(row, scale / Math.sqrt(fanIn));
  };
  // Exact program weights need precision Q8_0 activations cannot give the summed parities.
  const downType = layer < 2 ? GgmlType.F16 : GgmlType.Q8_0;

  return [
    normPlan(name("attn_norm.weight"), d, input.energyBeforeAttention),
    {
      name: name("attn_q.weight"),
      shape: [d, shape.headCount * hd],
      type: GgmlType.Q8_0,
      fillRow(row, index, rng) {
        const head = Math.floor(index / hd);
        const within = index % hd;
        const pair = within >> 1;
        const positional = attention.positionalHeads.find((candidate) => candidate.head === head);
        if (program && positional) {
          const a = attention.positionalQuery[pair];
          if (a === undefined) return;
          // The key turned back by `lag` positions, so the score peaks `lag` tokens back.
          const angle = positional.lag * shape.ropeFreqBase ** ((-2 * pair) / hd);
          row[layout.bias] = within % 2 === 0 ? a * Math.cos(angle) : -a * Math.sin(angle);
        } else if (program && head === attention.globalHead) {
          if (within === hd - 2) row[layout.bias] = attention.globalQuery;
        } else random(row, amplitude.queryKey, d, rng);
      },
    },
    {
      name: name("attn_k.weight"),
      shape: [d, shape.headCountKv * hd],
      type: GgmlType.Q8_0,
      fillRow(row, index, rng) {
        const within = index % hd;
        if (program && within >> 1 < attention.positionalQuery.length) {
          if (within % 2 === 0) row[layout.bias] = attention.positionalKey;
        } else if (program && within >= hd - 2) row[layout.priority + within - (hd - 2)] = 1;
        else random(row, amplitude.queryKey, d, rng);
      },
    },
    {
      name: name("attn_v.weight"),
      shape: [d, shape.headCountKv * hd],
      type: GgmlType.Q8_0,
      fillRow(row, index, rng) {
        // Every KV head offers the token's own code; each program head copies what it attended to.
        const within = index % hd;
        if (program && within < codeBits) row[layout.lag(0) + within] = 1;
        else random(row, amplitude.value, d, rng);
      },
    },
    {
      name: name("attn_output.weight"),
      shape: [shape.headCount * hd, d],
      type: GgmlType.Q8_0,
      fillRow(row, index, rng) {
        if (index >= layout.size) return random(row, amplitude.attentionOutput, shape.headCount * hd, rng);
        if (!program) return;
        for (const { head, lagIndex } of attention.positionalHeads) {
          const bit = index - layout.lag(lagIndex);
          if (bit >= 0 && bit < codeBits) row[head * hd + bit] = 1;
        }
        const levelBit = index - layout.global;
        if (levelBit >= 0 && levelBit < levelBits) row[attention.globalHead * hd + levelBit] = 1;
      },
    },
    normPlan(name("ffn_norm.weight"), d, input.energyBeforeFeedForward),
    {
      name: name("ffn_gate.weight"),
      shape: [d, shape.feedForwardLength],
      type: GgmlType.Q8_0,
      fillRow(row, index, rng) {
        const unit = units[index];
        if (unit) for (const [dimension, weight] of unit.gate) row[dimension] += weight;
        else random(row, amplitude.gateUp, d, rng);
      },
    },
    {
      name: name("ffn_up.weight"),
      shape: [d, shape.feedForwardLength],
      type: GgmlType.Q8_0,
      fillRow(row, index, rng) {
        if (units[index]) row[layout.bias] = 1;
        else random(row, amplitude.gateUp, d, rng);
      },
    },
    {
      name: name("ffn_down.weight"),
      shape: [shape.feedForwardLength, d],
      type: downType,
      fillRow(row, index, rng) {
        if (index < layout.size) {
          units.forEach((unit, u) => {
            for (const [dimension, weight] of unit.down) if (dimension === index) row[u] += weight;
          });
        } else {
          random(row, amplitude.down, shape.feedForwardLength, rng);
          // Free dims must not pick up the program units' large activations.
          row.fill(0, 0, units.length);
        }
      },
    },
  ];
}
