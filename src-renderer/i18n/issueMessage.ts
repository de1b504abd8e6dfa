import type { TFunction } from "i18next";

/**
 * What a contract check found wrong with a field, as zod reports it (`code` and its limits),
 * without zod's English sentence: enough for the dashboard to say it in the page's language.
 */
export interface FieldIssue {
  code: string;
  origin?: string;
  minimum?: number;
  maximum?: number;
  inclusive?: boolean;
  expected?: string;
  divisor?: number;
}

/** The translatable facts of a zod issue (or of an issue an API error's `details` carried). */
export function fieldIssueOf(issue: unknown): FieldIssue | undefined {
  if (typeof issue !== "object" || issue === null) return undefined;
  const entry = issue as Record<string, unknown>;
  if (typeof entry.code !== "string") return undefined;
  const result: FieldIssue = { code: entry.code };
  const limit = (value: unknown) =>
    typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : undefined;
  if (typeof entry.origin === "string") result.origin = entry.origin;
  if (limit(entry.minimum) !== undefined) result.minimum = limit(entry.minimum);
  if (limit(entry.maximum) !== undefined) result.maximum = limit(entry.maximum);
  if (typeof entry.inclusive === "boolean") result.inclusive = entry.inclusive;
  if (typeof entry.expected === "string") result.expected = entry.expected;
  if (limit(entry.divisor) !== undefined) result.divisor = limit(entry.divisor);
  return result;
}

/**
 * A field's problem in the page's language: limits of numbers, lengths of text and lists, a
 * number or whole number expected. Anything else (a check with its own words, `custom`) keeps
 * the message it came with.
 */
export function issueMessage(
  issue: FieldIssue | undefined,
  fallback: string,
  t: TFunction,
  locale: string,
): string {
  if (!issue) return fallback;
  // The locale's decimal sign, no grouping: a port's limit reads 65535, not 65,535 (or 65.535).
  const number = (value: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: 6, useGrouping: false }).format(value);
  const exclusive = issue.inclusive === false;
  switch (issue.code) {
    case "too_big":
      if (issue.maximum === undefined) break;
      if (issue.origin === "string")
        return t("validation.tooLong", { count: issue.maximum, maximum: number(issue.maximum) });
      if (issue.origin === "array" || issue.origin === "set")
        return t("validation.tooMany", { count: issue.maximum, maximum: number(issue.maximum) });
      return t(exclusive ? "validation.below" : "validation.atMost", { maximum: number(issue.maximum) });
    case "too_small":
      if (issue.minimum === undefined) break;
      if (issue.origin === "string")
        return issue.minimum <= 1
          ? t("validation.required")
          : t("validation.tooShort", { count: issue.minimum, minimum: number(issue.minimum) });
      if (issue.origin === "array" || issue.origin === "set")
        return t("validation.tooFew", { count: issue.minimum, minimum: number(issue.minimum) });
      return t(exclusive ? "validation.above" : "validation.atLeast", { minimum: number(issue.minimum) });
    case "invalid_type":
      if (issue.expected === "int") return t("validation.wholeNumber");
      if (issue.expected === "number") return t("validation.number");
      return t("validation.invalid");
    case "not_multiple_of":
      if (issue.divisor === undefined) break;
      return issue.divisor === 1
        ? t("validation.wholeNumber")
        : t("validation.multipleOf", { divisor: number(issue.divisor) });
    case "invalid_format":
      return t("validation.format");
    case "invalid_value":
    case "invalid_union":
      return t("validation.invalid");
  }
  return fallback;
}
