import type { ProgramFeatures } from "./predictNextToken.js";
import { programLayout as layout } from "./programLayout.js";
import { avoidedFlipBit, avoidedGuardBit } from "./programConstants.js";
import type { ParityRule, TestModelProgram } from "./TestModelProgram.js";

/**
 * One SwiGLU hidden unit: gate = λ·(Σ weight·x), up = the bias dimension, so the unit's output
 * silu(λy)·1 ≈ λ·relu(y); `down` already divides by λ.
 */
export interface FeedForwardUnit {
  gate: [dimension: number, weight: number][];
  down: [dimension: number, weight: number][];
}

/** Gate steepness: silu(λy)/λ is relu(y) to within 1e-6 for the |y| ≥ 2 the parities produce. */
const steepness = 8;

function unit(inputs: number[], signs: number[], shift: number, down: [number, number][]): FeedForwardUnit {
  return {
    gate: [
      ...inputs.map((dimension, i): [number, number] => [dimension, steepness * signs[i]]),
      [layout.bias, steepness * shift],
    ],
    down: down.map(([dimension, weight]) => [dimension, weight / steepness]),
  };
}

/**
 * A parity (product of n ±1 inputs) as a piecewise-linear function of their sum S, which only
 * takes the values -n, -n+2, …, n: relu(S+n+2) and relu(S+n) fix the value and slope at S = -n,
 * then one relu per inner lattice point turns the slope around. n + 1 units.
 */
function parityUnits(rule: ParityRule, target: number): FeedForwardUnit[] {
  const inputs = [
    ...rule.lagged.flatMap((bits, index) => bits.map((bit) => layout.lag(index) + bit)),
    ...rule.global.map((bit) => layout.global + bit),
  ];
  const n = inputs.length;
  const ones = inputs.map(() => 1);
  const valueAtMinimum = rule.sign * (-1) ** n;
  const firstSlope = -valueAtMinimum;
  const units = [
    unit(inputs, ones, n + 2, [[target, valueAtMinimum / 2]]),
    unit(inputs, ones, n, [[target, firstSlope - valueAtMinimum / 2]]),
  ];
  for (let m = 1; m < n; m++) {
    const slopeBefore = firstSlope * (-1) ** (m - 1);
    units.push(unit(inputs, ones, n - 2 * m, [[target, -2 * slopeBefore]]));
  }
  return units;
}

/** Layer 0's feed-forward: the next token's code bits. */
export function targetUnits(program: TestModelProgram): FeedForwardUnit[] {
  return program.rules.flatMap((rule, bit) => parityUnits(rule, layout.target + bit));
}

/** Layer 1's feed-forward: the stop detector, the main-only flips and the avoided-code fix. */
export function correctionUnits(program: TestModelProgram, features: ProgramFeatures): FeedForwardUnit[] {
  const units: FeedForwardUnit[] = [];
  const targetDim = (bit: number): number => layout.target + bit;
  if (features.stop) {
    // clamp(y + 0.5, 0, 1) with y = matches - (bits - 1): 1 when every stop bit matches, else 0.
    const dims = program.stop.bits.map(targetDim);
    const shift = -(dims.length - 1);
    units.push(unit(dims, program.stop.signs, shift + 0.5, [[layout.stop, 1]]));
    units.push(unit(dims, program.stop.signs, shift - 0.5, [[layout.stop, -1]]));
  }
  for (const rule of program.mixingFlips) {
    // Same construction as the draft flip below, with signed condition bits.
    const condition = rule.condition.map(
      ({ source, bit }) => (source === "target" ? layout.target : layout.lag(source)) + bit,
    );
    const signs = rule.condition.map(({ sign }) => sign);
    const dims = [targetDim(rule.bit), ...condition];
    const k = condition.length;
    units.push(unit(dims, [1, ...signs], -k, [[targetDim(rule.bit), -2]]));
    units.push(unit(dims, [-1, ...signs], -k, [[targetDim(rule.bit), 2]]));
  }
  if (features.draftFlip) {
    // Z·[all condition bits set] = relu(Z + c - k) - relu(-Z + c - k); subtracting it twice flips Z.
    const condition = program.draftFlip.whenOwnBits.map((bit) => layout.lag(0) + bit);
    const k = condition.length;
    for (const bit of program.draftFlip.flipBits) {
      const dims = [targetDim(bit), ...condition];
      units.push(unit(dims, [1, ...condition.map(() => 1)], -k, [[targetDim(bit), -2]]));
      units.push(unit(dims, [-1, ...condition.map(() => 1)], -k, [[targetDim(bit), 2]]));
    }
  }
  // relu(Z8 + Z9 - 1) is 1 exactly when both are +1; subtracting 2 turns bit 9 off.
  units.push(
    unit([targetDim(avoidedGuardBit), targetDim(avoidedFlipBit)], [1, 1], -1, [
      [targetDim(avoidedFlipBit), -2],
    ]),
  );
  return units;
}
