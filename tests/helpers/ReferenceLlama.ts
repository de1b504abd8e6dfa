import { GgmlType } from "../../src-main/gguf/GgmlType.js";
import { float16ToFloat32 } from "../../src-main/gguf/float16ToFloat32.js";
import { float32ToFloat16 } from "../../src-main/gguf/float32ToFloat16.js";
import { quantizeRowQ8_0 } from "../../src-main/gguf/quantizeRowQ8_0.js";
import { tensorPlanSource, type TensorPlan } from "../../src-main/testModel/TensorPlan.js";
import type { TestModelShape } from "../../src-main/testModel/testModelShapes.js";

interface Matrix {
  columns: number;
  type: GgmlType;
  values: Float32Array;
}

/**
 * A plain float64 LLaMA forward pass over the exact values the GGUF file stores (dequantized), and
 * optionally the Q8_0 / F16 rounding ggml applies to activations, for checking the generated
 * weights without llama.cpp. Slow; meant for the tiny variants.
 */
export class ReferenceLlama {
  readonly #shape: TestModelShape;
  readonly #weights = new Map<string, Matrix>();
  readonly #quantizeActivations: boolean;
  readonly #keys: Float64Array[][] = [];
  readonly #values: Float64Array[][] = [];
  #position = 0;

  constructor(
    shape: TestModelShape,
    plans: TensorPlan[],
    seed: string,
    options: { quantizeActivations: boolean },
  ) {
    this.#shape = shape;
    this.#quantizeActivations = options.quantizeActivations;
    for (const plan of plans) {
      const source = tensorPlanSource(plan, seed);
      const parts = [...source.rows()];
      const values = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
      let offset = 0;
      for (const part of parts) {
        values.set(part, offset);
        offset += part.length;
      }
      this.#weights.set(plan.name, {
        columns: plan.shape[0],
        type: plan.type,
        values: storedValues(plan.type, values, plan.shape[0]),
      });
    }
    for (let layer = 0; layer < shape.blockCount; layer++) {
      this.#keys.push([]);
      this.#values.push([]);
    }
  }

  /** Feeds one token; returns the logits for the next one. */
  next(token: number): Float64Array {
    const s = this.#shape;
    const d = s.embeddingLength;
    const hd = d / s.headCount;
    const embedding = this.#weight("token_embd.weight");
    let x: Float64Array = Float64Array.from(embedding.values.subarray(token * d, (token + 1) * d));
    for (let layer = 0; layer < s.blockCount; layer++) {
      const w = (name: string): Matrix => this.#weight(`blk.${layer}.${name}.weight`);
      const normed = rmsNorm(x, w("attn_norm").values, s.rmsEpsilon);
      const q = this.#matmul(w("attn_q"), normed);
      const k = this.#matmul(w("attn_k"), normed);
      const v = this.#matmul(w("attn_v"), normed);
      rope(q, hd, this.#position, s.ropeFreqBase);
      rope(k, hd, this.#position, s.ropeFreqBase);
      this.#keys[layer].push(k);
      this.#values[layer].push(v);
      const attended = new Float64Array(s.headCount * hd);
      const group = s.headCount / s.headCountKv;
      for (let head = 0; head < s.headCount; head++) {
        const kv = Math.floor(head / group);
        const scores = this.#keys[layer].map((key) => {
          let dot = 0;
          for (let i = 0; i < hd; i++) dot += q[head * hd + i] * key[kv * hd + i];
          return dot / Math.sqrt(hd);
        });
        const max = Math.max(...scores);
        const weights = scores.map((score) => Math.exp(score - max));
        const total = weights.reduce((sum, weight) => sum + weight, 0);
        this.#values[layer].forEach((value, position) => {
          for (let i = 0; i < hd; i++)
            attended[head * hd + i] += (weights[position] / total) * value[kv * hd + i];
        });
      }
      x = add(x, this.#matmul(w("attn_output"), attended));
      const normed2 = rmsNorm(x, w("ffn_norm").values, s.rmsEpsilon);
      const gate = this.#matmul(w("ffn_gate"), normed2);
      const up = this.#matmul(w("ffn_up"), normed2);
      const hidden = gate.map((g, i) => (g / (1 + Math.exp(-g))) * up[i]);
      x = add(x, this.#matmul(w("ffn_down"), hidden));
    }
    this.#position++;
    return this.#matmul(
      this.#weight("output.weight"),
      rmsNorm(x, this.#weight("output_norm.weight").values, s.rmsEpsilon),
    );
  }

  #weight(name: string): Matrix {
    const matrix = this.#weights.get(name);
    if (!matrix) throw new Error(`No tensor ${name}`);
    return matrix;
  }

  #matmul(matrix: Matrix, input: Float64Array): Float64Array {
    const columns = matrix.columns;
    const x = this.#quantizeActivations ? activationAsStored(matrix.type, input) : input;
    const rows = matrix.values.length / columns;
    const out = new Float64Array(rows);
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      const offset = r * columns;
      for (let c = 0; c < columns; c++) sum += matrix.values[offset + c] * x[c];
      out[r] = sum;
    }
    return out;
  }
}

function storedValues(type: GgmlType, values: Float32Array, rowLength: number): Float32Array {
  if (type === GgmlType.F32) return values;
  const stored = new Float32Array(values.length);
  if (type === GgmlType.F16) {
    for (let i = 0; i < values.length; i++) stored[i] = float16ToFloat32(float32ToFloat16(values[i]));
    return stored;
  }
  const scratch = new Uint8Array((rowLength / 32) * 34);
  for (let offset = 0; offset < values.length; offset += rowLength)
    quantizeRowQ8_0(
      values.subarray(offset, offset + rowLength),
      scratch,
      0,
      stored.subarray(offset, offset + rowLength),
    );
  return stored;
}

/** ggml converts a matmul's input to the weight's "vec dot" type: Q8_0 for Q8_0, F16 for F16. */
function activationAsStored(type: GgmlType, input: Float64Array): Float64Array {
  return Float64Array.from(storedValues(type, Float32Array.from(input), input.length));
}

function rmsNorm(x: Float64Array, weight: Float32Array, epsilon: number): Float64Array {
  const meanSquare = x.reduce((sum, value) => sum + value * value, 0) / x.length;
  const scale = 1 / Math.sqrt(meanSquare + epsilon);
  return x.map((value, i) => value * scale * weight[i]);
}

function rope(vector: Float64Array, headDimension: number, position: number, base: number): void {
  for (let offset = 0; offset < vector.length; offset += headDimension)
    for (let pair = 0; pair < headDimension / 2; pair++) {
      const angle = position * base ** ((-2 * pair) / headDimension);
      const a = vector[offset + 2 * pair];
      const b = vector[offset + 2 * pair + 1];
      vector[offset + 2 * pair] = a * Math.cos(angle) - b * Math.sin(angle);
      vector[offset + 2 * pair + 1] = a * Math.sin(angle) + b * Math.cos(angle);
    }
}

function add(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((value, i) => value + b[i]);
}
