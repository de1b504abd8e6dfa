import { float16ToFloat32 } from "./float16ToFloat32.js";
import { float32ToFloat16 } from "./float32ToFloat16.js";

/** Values per Q8_0 block. */
export const q8_0BlockSize = 32;

/** Bytes per Q8_0 block: an f16 scale followed by 32 int8 quants. */
export const q8_0BlockBytes = 34;

/**
 * Quantizes `values` (a multiple of 32 long) into Q8_0 blocks at `target[offset..]`, following
 * ggml's reference `quantize_row_q8_0_ref` (scale = max |x| / 127, round half away from zero).
 * When `dequantized` is given, it receives the values llama.cpp will read back.
 */
export function quantizeRowQ8_0(
  values: Float32Array,
  target: Uint8Array,
  offset: number,
  dequantized?: Float32Array,
): void {
  if (values.length % q8_0BlockSize !== 0)
    throw new Error(`Q8_0 rows must be a multiple of ${q8_0BlockSize} values, got ${values.length}`);

  const view = new DataView(target.buffer, target.byteOffset, target.byteLength);
  for (let block = 0; block < values.length / q8_0BlockSize; block++) {
    const start = block * q8_0BlockSize;
    let absoluteMax = 0;
    for (let i = 0; i < q8_0BlockSize; i++) absoluteMax = Math.max(absoluteMax, Math.abs(values[start + i]));

    const scale = Math.fround(absoluteMax / 127);
    const inverseScale = scale !== 0 ? Math.fround(1 / scale) : 0;
    const scaleBits = float32ToFloat16(scale);
    const storedScale = float16ToFloat32(scaleBits);
    const blockOffset = offset + block * q8_0BlockBytes;
    view.setUint16(blockOffset, scaleBits, true);
    for (let i = 0; i < q8_0BlockSize; i++) {
      // Math.fround mirrors the float32 product C computes before roundf.
      const scaled = Math.fround(values[start + i] * inverseScale);
      const quant = Math.sign(scaled) * Math.round(Math.abs(scaled));
      view.setInt8(blockOffset + 2 + i, quant);
      if (dequantized) dequantized[start + i] = quant * storedScale;
    }
  }
}
