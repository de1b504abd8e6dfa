import { z } from "zod";
import { modelIdSchema } from "../../../src-shared/contracts/catalog.js";
import { resultIdSchema } from "../../../src-shared/contracts/results.js";
import { PerchError } from "../../base/PerchError.js";

/**
 * Reads a path id: a malformed one is `invalid_id` (400) — the ids name files, so the error says
 * so instead of a generic validation failure. The router already URL-decoded the segment.
 */
function parseId(params: unknown, name: string, schema: z.ZodType<string>): string {
  const raw = (params as Record<string, unknown> | null)?.[name];
  const checked = schema.safeParse(raw);
  if (!checked.success) {
    throw new PerchError(
      "invalid_id",
      `Invalid ${name}: ${checked.error.issues[0]?.message ?? "malformed"}.`,
      {
        param: name,
      },
    );
  }
  return checked.data;
}

export const parseModelIdParam = (params: unknown): string => parseId(params, "model_id", modelIdSchema);
export const parseResultIdParam = (params: unknown): string => parseId(params, "result_id", resultIdSchema);
