/**
 * A nested payload as `path: value` rows (`hardware.chip: Apple M2`), arrays of objects shown
 * by their count and first item's fields, so the preview lists every field that would be sent.
 */
export function flattenPayload(value: unknown, prefix = ""): [string, string][] {
  if (Array.isArray(value)) {
    if (value.length === 0 || typeof value[0] !== "object" || value[0] === null) {
      return [[prefix, value.length === 0 ? "[]" : JSON.stringify(value)]];
    }
    return [
      [prefix, `${value.length} ×`],
      ...flattenPayload(value[0], `${prefix}[0]`).filter(([path]) => path !== `${prefix}[0]`),
    ];
  }
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, entry]) =>
      flattenPayload(entry, prefix ? `${prefix}.${key}` : key),
    );
  }
  return [[prefix, value === null || value === undefined ? "—" : String(value)]];
}
