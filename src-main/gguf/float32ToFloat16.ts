const float32 = new Float32Array(1);
const float32Bits = new Uint32Array(float32.buffer);

/**
 * Converts a number to IEEE 754 half precision bits with round-to-nearest-even, the rounding
 * ggml's own conversion uses, so files we write hold the values llama.cpp would have produced.
 */
export function float32ToFloat16(value: number): number {
  float32[0] = value;
  const bits = float32Bits[0];
  const sign = (bits >>> 16) & 0x8000;
  const exponent = (bits >>> 23) & 0xff;
  const mantissa = bits & 0x7fffff;

  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);

  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;

  if (halfExponent <= 0) {
    // Subnormal half (or zero): shift the mantissa with its implicit leading one into place.
    if (halfExponent < -10) return sign;
    const fullMantissa = mantissa | 0x800000;
    const shift = 14 - halfExponent;
    const halfMantissa = fullMantissa >>> shift;
    const remainder = fullMantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    const roundUp = remainder > halfway || (remainder === halfway && (halfMantissa & 1) === 1);
    return sign | (halfMantissa + (roundUp ? 1 : 0));
  }

  const halfMantissa = mantissa >>> 13;
  const remainder = mantissa & 0x1fff;
  const roundUp = remainder > 0x1000 || (remainder === 0x1000 && (halfMantissa & 1) === 1);
  // A carry out of the mantissa correctly bumps the exponent (and overflows to infinity).
  return sign | ((halfExponent << 10) + halfMantissa + (roundUp ? 1 : 0));
}
