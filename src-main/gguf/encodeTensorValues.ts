import { GgmlType } from "./GgmlType.js";
import { float32ToFloat16 } from "./float32ToFloat16.js";
import { quantizeRowQ8_0 } from "./quantizeRowQ8_0.js";

/** Encodes whole rows of float values as `type` into `target` at `offset`. */
export function encodeTensorValues(
  type: GgmlType,
  values: Float32Array,
  target: Buffer,
  offset: number,
): void {
  switch (type) {
    case GgmlType.F32:
      for (let i = 0; i < values.length; i++) target.writeFloatLE(values[i], offset + i * 4);
      return;
    case GgmlType.F16:
      for (let i = 0; i < values.length; i++)
        target.writeUint16LE(float32ToFloat16(values[i]), offset + i * 2);
      return;
    case GgmlType.Q8_0:
      quantizeRowQ8_0(values, target, offset);
      return;
    default:
      throw new Error(`Unsupported ggml type ${type satisfies never}`);
  }
}
