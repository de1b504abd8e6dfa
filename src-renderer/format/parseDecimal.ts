/** Plain decimal notation: digits, one decimal point or comma, an optional exponent (`1e-5`). */
const decimal = /^[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A number as a person types it in a field: `0.7`, or `0,7` with a decimal comma (German and
 * most of Europe). Empty text is unset; anything else that is no decimal number stays NaN, so
 * validation names the field — also what `Number()` would read otherwise (`0x1`, `0b1`,
 * `Infinity`), which no one means in a settings field.
 */
export function parseDecimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return decimal.test(trimmed) ? Number(trimmed.replace(",", ".")) : Number.NaN;
}
