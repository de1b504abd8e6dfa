/** Parameter count as `7.6B` / `350M`. */
export function formatParameters(count: number | null | undefined): string | null {
  if (!count || count <= 0) return null;
  if (count >= 1e9) return `${(count / 1e9).toFixed(count >= 1e10 ? 0 : 1)}B`;
  if (count >= 1e6) return `${Math.round(count / 1e6)}M`;
  return `${Math.round(count / 1e3)}K`;
}
