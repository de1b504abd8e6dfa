import { minimumMemoryBudgetBytes } from "../../src-shared/contracts/settings.js";
import { parseDecimal } from "../format/parseDecimal.js";

const gib = 1024 ** 3;

/**
 * The smallest memory budget the settings form takes, in GiB (the API's minimum): no model loads
 * in less, and a slip such as `0.0000001` otherwise saved a 107-byte budget.
 */
export const minimumMemoryBudgetGib = minimumMemoryBudgetBytes / gib;

/** A saved budget in GiB as the field shows it: `1.3`, not `1.2999999998137355` (bytes are whole). */
export function memoryBudgetText(bytes: number | null): string {
  return bytes ? String(Number((bytes / gib).toFixed(2))) : "";
}

/**
 * The budget typed in the field, in bytes: `null` when empty (the default), `NaN` when it is not
 * a number. A decimal comma (`1,5`) is read as the other decimal fields read it.
 */
export function memoryBudgetBytes(text: string): number | null {
  const value = parseDecimal(text);
  if (value === undefined) return null;
  return Number.isFinite(value) ? Math.round(value * gib) : Number.NaN;
}

/** Whether a budget from `memoryBudgetBytes` can be saved (unset, or at least the minimum). */
export function isMemoryBudgetAccepted(bytes: number | null): boolean {
  return bytes === null || bytes >= minimumMemoryBudgetGib * gib;
}
