/**
 * How a bench cell stands against its target, judged on the paired single-round ratios rather than
 * on the ratio of the totals alone: this VM's rounds scatter by up to ±0.15 around that ratio, so a
 * total a little above or below the line decides nothing. "met": every round on the target's side;
 * "missed": every round on the other side; "within noise": rounds on both sides (more rounds, or a
 * quieter machine, would tell).
 */
export type TargetVerdict = "met" | "missed" | "within noise" | "-";

export function targetVerdict(
  roundRatios: readonly number[],
  target: { atLeast: number } | { atMost: number } | undefined,
): TargetVerdict {
  if (target === undefined || roundRatios.length === 0) return "-";
  const meets = (ratio: number) => ("atLeast" in target ? ratio >= target.atLeast : ratio <= target.atMost);
  const meeting = roundRatios.filter(meets).length;
  if (meeting === roundRatios.length) return "met";
  return meeting === 0 ? "missed" : "within noise";
}
