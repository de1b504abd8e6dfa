import { ZodError } from "zod";
import { PerchError } from "../../base/PerchError.js";

/**
 * A row that the benchmark's row schema refuses (a Hub mirror serving other data, a field of
 * the wrong type) is the dataset's fault, not Perch's: `invalid_request` naming the field, not
 * `internal_error` with raw zod issues. Anything else is returned as it is.
 */
export function toDatasetError(error: unknown, title: string): unknown {
  if (!(error instanceof ZodError)) return error;
  const first = error.issues[0];
  const field = first?.path.map(String).join(".");
  const what = first ? `${field ? `${field}: ` : ""}${first.message}` : "unreadable row";
  return new PerchError("invalid_request", `The ${title} dataset has a row Perch cannot read (${what}).`, {
    param: "dataset",
  });
}
