/**
 * Where the program's values live in the residual stream (first dimensions; the rest are free,
 * random dimensions). Each entry is the first dimension of a run.
 */
export const programLayout = {
  /** Constant 1: lets matrices add constants (LLaMA has no biases). */
  bias: 0,
  /** Current token's code bits, ±1 (10 dims). */
  own: 1,
  /** (cos, sin) of the token's priority angle (2 dims), read by the global attention head. */
  priority: 11,
  /** Previous token's code bits, copied by the previous-token head (10 dims). */
  previous: 13,
  /** Level bits of the highest-priority token in context, copied by the global head (5 dims). */
  global: 23,
  /** Next token's code bits, computed by the first feed-forward layer (10 dims). */
  target: 28,
  /** 1 when the model should emit `<|im_end|>`. */
  stop: 38,
  /** Dimensions the program uses. */
  size: 39,
} as const;
