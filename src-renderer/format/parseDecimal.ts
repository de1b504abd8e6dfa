/**
 * A number as a person types it in a field: `0.7`, or `0,7` with a decimal comma (German and
 * most of Europe). Empty text is unset; anything else that is no number stays NaN, so validation
 * names the field.
 */
export function parseDecimal(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  return Number(/^[-+]?\d*,\d+$/.test(trimmed) ? trimmed.replace(",", ".") : trimmed);
}
