import {
  avoidedFlipBit,
  avoidedGuardBit,
  codeBits,
  codeSign,
  levelBits,
  type TestModelProgram,
} from "./TestModelProgram.js";

/** Which parts of the program a model variant implements; the draft leaves out the flip and the stop. */
export interface ProgramFeatures {
  draftFlip: boolean;
  stop: boolean;
}

/**
 * The greedy next token the generated weights are built to produce after `context` — the reference
 * the integration tests hold llama.cpp's output to.
 */
export function predictNextToken(
  program: TestModelProgram,
  context: readonly number[],
  features: ProgramFeatures,
): number {
  if (context.length === 0) throw new Error("The context must hold at least one token");
  const own = program.codeOfToken[context[context.length - 1]];
  const previous = program.codeOfToken[context[Math.max(0, context.length - 2)]];
  const levelMask = (1 << levelBits) - 1;
  let global = own;
  for (const token of context) {
    const code = program.codeOfToken[token];
    if (program.rankOfLevel[code & levelMask] > program.rankOfLevel[global & levelMask]) global = code;
  }

  const target: number[] = program.rules.map(
    (rule) =>
      rule.sign *
      rule.own.reduce((product, bit) => product * codeSign(own, bit), 1) *
      rule.previous.reduce((product, bit) => product * codeSign(previous, bit), 1) *
      rule.global.reduce((product, bit) => product * codeSign(global, bit), 1),
  );

  if (features.stop && program.stop.bits.every((bit, i) => target[bit] === program.stop.signs[i]))
    return program.endToken;
  if (features.draftFlip && program.draftFlip.whenOwnBits.every((bit) => codeSign(own, bit) === 1))
    for (const bit of program.draftFlip.flipBits) target[bit] = -target[bit];
  if (target[avoidedGuardBit] === 1 && target[avoidedFlipBit] === 1) target[avoidedFlipBit] = -1;

  let code = 0;
  for (let bit = 0; bit < codeBits; bit++) if (target[bit] === 1) code |= 1 << bit;
  return program.tokenOfCode[code];
}
