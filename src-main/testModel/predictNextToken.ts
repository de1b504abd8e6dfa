import { codeSign } from "./codeSign.js";
import { avoidedFlipBit, avoidedGuardBit, codeBits, levelBits, programLags } from "./programConstants.js";
import type { TestModelProgram } from "./TestModelProgram.js";

/** Which parts of the program a model variant implements; the draft leaves out the flip and the stop. */
export interface ProgramFeatures {
  draftFlip: boolean;
  stop: boolean;
}

/**
 * The greedy next token the generated weights are built to produce after `context` (all tokens
 * the model has seen in this sequence, prompt included) — the reference the integration tests
 * hold llama.cpp's output to.
 */
export function predictNextToken(
  program: TestModelProgram,
  context: readonly number[],
  features: ProgramFeatures,
): number {
  if (context.length === 0) throw new Error("The context must hold at least one token");
  const last = context.length - 1;
  // A head looking further back than the sequence goes lands on its first token.
  const lagged = programLags.map((lag) => program.codeOfToken[context[Math.max(0, last - lag)]]);
  const levelMask = (1 << levelBits) - 1;
  let global = lagged[0];
  for (const token of context) {
    const code = program.codeOfToken[token];
    if (program.rankOfLevel[code & levelMask] > program.rankOfLevel[global & levelMask]) global = code;
  }

  const target: number[] = program.rules.map((rule) => {
    let product = rule.sign * rule.global.reduce((value, bit) => value * codeSign(global, bit), 1);
    rule.lagged.forEach((bits, index) => {
      for (const bit of bits) product *= codeSign(lagged[index], bit);
    });
    return product;
  });

  if (features.stop && program.stop.bits.every((bit, i) => target[bit] === program.stop.signs[i]))
    return program.endToken;
  const before = [...target];
  for (const rule of program.mixingFlips)
    if (
      rule.condition.every(
        ({ source, bit, sign }) =>
          sign * (source === "target" ? before[bit] : codeSign(lagged[source], bit)) === 1,
      )
    )
      target[rule.bit] = -target[rule.bit];
  if (features.draftFlip && program.draftFlip.whenOwnBits.every((bit) => codeSign(lagged[0], bit) === 1))
    for (const bit of program.draftFlip.flipBits) target[bit] = -target[bit];
  if (before[avoidedGuardBit] === 1 && before[avoidedFlipBit] === 1) target[avoidedFlipBit] = -1;

  let code = 0;
  for (let bit = 0; bit < codeBits; bit++) if (target[bit] === 1) code |= 1 << bit;
  return program.tokenOfCode[code];
}
