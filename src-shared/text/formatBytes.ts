const units = ["B", "KB", "MB", "GB", "TB"];

/**
 * Decimal units, as Finder, Ollama's `ollama list` and LM Studio show file sizes: `4.37 GB`.
 * The dashboard and the CLI both use it, so a size reads the same in each.
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "–";
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = unit === 0 ? 0 : value >= 100 ? 0 : value >= 10 ? 1 : 2;
  const text = value.toFixed(digits);
  // 999.96 KB rounds to "1000 KB": say "1.00 MB" instead.
  if (Number(text) >= 1000 && unit < units.length - 1)
    return `${(value / 1000).toFixed(2)} ${units[unit + 1]}`;
  return `${text} ${units[unit]}`;
}
