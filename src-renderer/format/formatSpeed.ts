/** Tokens per second in the user's locale: whole numbers from 100 up, one decimal below. */
export function formatSpeed(tokensPerSecond: number, locale = "en"): string {
  if (!Number.isFinite(tokensPerSecond)) return "–";
  const digits = tokensPerSecond >= 100 ? 0 : 1;
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(tokensPerSecond);
}
