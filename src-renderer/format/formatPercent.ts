/** An accuracy fraction (0..1) as a percentage in the user's locale: `93.9%`, `93,9 %` (de). */
export function formatPercent(fraction: number | null | undefined, locale = "en"): string {
  if (fraction === null || fraction === undefined || !Number.isFinite(fraction)) return "–";
  return new Intl.NumberFormat(locale, {
    style: "percent",
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(fraction);
}
