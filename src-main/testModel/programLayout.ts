import { codeBits, levelBits, programLags } from "./programConstants.js";

const lagsStart = 1;
const priority = lagsStart + programLags.length * codeBits;
const global = priority + 2;
const target = global + levelBits;
const stop = target + codeBits;

/**
 * Where the program's values live in the residual stream: the first `size` dimensions; the rest
 * are free, random dimensions. Each entry is the first dimension of a run.
 */
export const programLayout = {
  /** Constant 1: lets matrices add constants (LLaMA has no biases). */
  bias: 0,
  /** Code bits (±1) of the token `programLags[i]` positions back: lag 0 is the token itself (10 dims each). */
  lag: (index: number): number => lagsStart + index * codeBits,
  /** (cos, sin) of the token's priority angle, read by the global attention head. */
  priority,
  /** Level bits of the highest-priority token in context, copied by the global head. */
  global,
  /** Next token's code bits, computed by the first feed-forward layer. */
  target,
  /** 1 when the model should emit `<|im_end|>`. */
  stop,
  size: stop + 1,
} as const;
