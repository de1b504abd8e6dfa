/**
 * Tokens per second that never becomes NaN or Infinity: a zero, negative or non-finite duration
 * (a clock that did not tick, a single-token generation) or no tokens gives 0, which the result
 * schema documents as "not measurable".
 */
export function safeRate(tokens: number, ms: number): number {
  if (!Number.isFinite(tokens) || !Number.isFinite(ms) || tokens <= 0 || ms <= 0) return 0;
  return (tokens * 1000) / ms;
}

/** `numerator / denominator`, or 0 when that is not a finite number. */
export function safeDivide(numerator: number, denominator: number): number {
  const value = numerator / denominator;
  return Number.isFinite(value) ? value : 0;
}

/** A duration that is a finite, non-negative number (clock skew can make differences negative). */
export function safeMs(ms: number): number {
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
