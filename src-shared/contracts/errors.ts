import { z } from "zod";

/** Stable error codes. Clients may switch on these; never rename one. */
export const errorCodeSchema = z.enum([
  "invalid_json",
  "invalid_request",
  "body_too_large",
  "unsupported_media_type",
  "not_found",
  "model_not_found",
  "result_not_found",
  "run_not_found",
  "invalid_id",
  "context_length_exceeded",
  "queue_full",
  "conflict",
  "unauthorized",
  "forbidden",
  "model_load_failed",
  "insufficient_memory",
  "generation_failed",
  "cancelled",
  "upstream_error",
  "storage_error",
  "internal_error",
  "python_missing",
  "invalid_model_file",
  "server_shutting_down",
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

/**
 * The one error shape every HTTP route answers with. It is the OpenAI error shape
 * (`message`, `type`, `code`, `param`) plus optional `details`, so OpenAI clients parse it as is.
 */
export const apiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    code: errorCodeSchema,
    param: z.string().nullable(),
    details: z.unknown().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
