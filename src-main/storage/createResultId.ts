import crypto from "node:crypto";

/**
 * A new result id that sorts by time and never collides in practice:
 * `<prefix>-20250101T120000Z-<8 hex>` (prefix e.g. `acc`, `perf`).
 */
export function createResultId(prefix: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const safePrefix = prefix.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32) || "result";
  return `${safePrefix}-${stamp}-${crypto.randomBytes(4).toString("hex")}`;
}
