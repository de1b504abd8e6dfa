import { GgmlType } from "./GgmlType.js";
import { q8_0BlockBytes, q8_0BlockSize } from "./quantizeRowQ8_0.js";

/** Bytes that `values` values of `type` take in a GGUF file. */
export function ggmlByteLength(type: GgmlType, values: number): number {
  switch (type) {
    case GgmlType.F32:
      return values * 4;
    case GgmlType.F16:
      return values * 2;
    case GgmlType.Q8_0:
      return (values / q8_0BlockSize) * q8_0BlockBytes;
    default:
      return type satisfies never;
  }
}
