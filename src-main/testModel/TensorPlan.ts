import type { GgmlType } from "../gguf/GgmlType.js";
import type { GgufTensorSource } from "../gguf/GgufWriter.js";
import { SeededRandom } from "./SeededRandom.js";

/**
 * A tensor described row by row, so the realistic model streams to disk instead of existing in
 * memory: `fillRow` writes row `index` (length `shape[0]`) into a zeroed array.
 */
export interface TensorPlan {
  name: string;
  shape: readonly number[];
  type: GgmlType;
  fillRow(row: Float32Array, index: number, random: SeededRandom): void;
}

/** Values per streamed chunk: keeps per-row call overhead low without large buffers. */
const chunkValues = 1 << 16;

/** A writer source for `plan`; each tensor has its own random stream, independent of write order. */
export function tensorPlanSource(plan: TensorPlan, seed: string): GgufTensorSource {
  const rowLength = plan.shape[0];
  const rowCount = plan.shape.slice(1).reduce((product, dimension) => product * dimension, 1);
  return {
    name: plan.name,
    shape: plan.shape,
    type: plan.type,
    *rows() {
      const random = new SeededRandom(`${seed}/${plan.name}`);
      const rowsPerChunk = Math.max(1, Math.floor(chunkValues / rowLength));
      for (let first = 0; first < rowCount; first += rowsPerChunk) {
        const count = Math.min(rowsPerChunk, rowCount - first);
        const chunk = new Float32Array(count * rowLength);
        for (let i = 0; i < count; i++)
          plan.fillRow(chunk.subarray(i * rowLength, (i + 1) * rowLength), first + i, random);
        yield chunk;
      }
    },
  };
}
