import type { z } from "zod";
import { PerchError } from "./PerchError.js";

/**
 * Validates untrusted input with a contract schema. Every route calls this on its body, params
 * and query, so bad input becomes a typed 400 (`invalid_request`) and never reaches the services.
 */
export function parseWith<T extends z.ZodType>(schema: T, input: unknown, where = "body"): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const param = first && first.path.length > 0 ? first.path.map(String).join(".") : undefined;
  const message = first
    ? `Invalid ${where}${param ? ` at '${param}'` : ""}: ${first.message}`
    : `Invalid ${where}`;
  throw new PerchError("invalid_request", message, {
    param,
    details: result.error.issues
      .slice(0, 10)
      .map((issue) => ({ path: issue.path.map(String), message: issue.message })),
  });
}
