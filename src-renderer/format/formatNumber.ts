/** A number in the user's locale (`1.234,5` in German), with at most `digits` decimals. */
export function formatNumber(value: number | null | undefined, locale: string, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(
    value,
  );
}
