import { z } from "zod";

/** Inputs per embedding request (OpenAI's limit). */
export const maxEmbeddingInputs = 2048;

const tokenArraySchema = z
  .array(
    z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
  )
  .min(1)
  .max(1_000_000);

/**
 * Body of `POST /v1/embeddings` (OpenAI): text, texts, token ids or lists of token ids. Empty
 * inputs are refused as OpenAI does; `dimensions` only when it is the model's own size. Unknown
 * fields are dropped and named in `x-perch-ignored-fields` (the OpenAI field policy).
 */
export const embeddingRequestSchema = z.object({
  model: z.string().min(1).max(512),
  input: z.union([
    z.string().min(1, "must not be empty"),
    z.array(z.string().min(1, "must not be empty")).min(1).max(maxEmbeddingInputs),
    tokenArraySchema,
    z.array(tokenArraySchema).min(1).max(maxEmbeddingInputs),
  ]),
  /** `base64`: the float32 values, little-endian, base64 encoded (the `openai` SDK's default). */
  encoding_format: z.enum(["float", "base64"]).optional(),
  dimensions: z.number().int().min(1).max(1_000_000).optional(),
  user: z.string().max(256).optional(),
});
export type EmbeddingRequest = z.infer<typeof embeddingRequestSchema>;

export const embeddingResponseSchema = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({
      object: z.literal("embedding"),
      index: z.number().int(),
      /** Numbers, or a base64 string with `encoding_format: "base64"`. */
      embedding: z.union([z.array(z.number()), z.string()]),
    }),
  ),
  model: z.string(),
  usage: z.object({ prompt_tokens: z.number().int(), total_tokens: z.number().int() }),
});

/** `GET /v1/models/{id}`: one model in OpenAI's shape. */
export const modelObjectSchema = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});

/** The embedding routes and `GET /v1/models/{id}` (OpenAI's API), for the OpenAPI document. */
export const embeddingRoutes = {
  getModel: {
    method: "GET",
    /** The id is the rest of the path: it may hold '/', sent as is or percent-encoded. */
    path: "/v1/models/*",
    summary: "One model by id (the id may hold '/', sent as is or percent-encoded)",
    response: modelObjectSchema,
  },
  embeddings: {
    method: "POST",
    path: "/v1/embeddings",
    summary: "OpenAI embeddings (vectors of length 1; float or base64 float32)",
    body: embeddingRequestSchema,
    response: embeddingResponseSchema,
    namesIgnoredFields: true,
  },
} as const;
