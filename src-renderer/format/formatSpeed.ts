/** Tokens per second as shown in rows: whole numbers from 100 up, one decimal below. */
export function formatSpeed(tokensPerSecond: number): string {
  if (!Number.isFinite(tokensPerSecond)) return "–";
  return tokensPerSecond >= 100 ? String(Math.round(tokensPerSecond)) : tokensPerSecond.toFixed(1);
}
