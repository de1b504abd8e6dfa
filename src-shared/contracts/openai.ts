import { z } from "zod";

const textPartSchema = z.object({ type: z.literal("text"), text: z.string() }).strict();
/** OpenAI message content: a string or an array of text parts (images are not supported). */
export const openAiContentSchema = z.union([z.string(), z.array(textPartSchema).max(1000)]);

export const openAiMessageSchema = z
  .object({
    role: z.enum(["system", "developer", "user", "assistant", "tool"]),
    content: openAiContentSchema.nullable().optional(),
    name: z.string().max(256).optional(),
    tool_call_id: z.string().optional(),
  })
  .strict();

const stopSchema = z
  .union([z.string().min(1).max(512), z.array(z.string().min(1).max(512)).max(16)])
  .nullable();

const responseFormatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }).strict(),
  z.object({ type: z.literal("json_object") }).strict(),
  z
    .object({
      type: z.literal("json_schema"),
      json_schema: z
        .object({
          name: z.string().max(256).optional(),
          description: z.string().optional(),
          schema: z.record(z.string(), z.unknown()).optional(),
          strict: z.boolean().nullable().optional(),
        })
        .strict(),
    })
    .strict(),
]);

/** Sampling and length fields shared by chat and text completions. */
const samplingFields = {
  model: z.string().min(1).max(512),
  stream: z.boolean().nullable().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).strict().nullable().optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  top_k: z.number().int().min(0).max(1000).nullable().optional(),
  min_p: z.number().min(0).max(1).nullable().optional(),
  seed: z.number().int().nullable().optional(),
  presence_penalty: z.number().min(-2).max(2).nullable().optional(),
  frequency_penalty: z.number().min(-2).max(2).nullable().optional(),
  repetition_penalty: z.number().min(0).max(5).nullable().optional(),
  repeat_penalty: z.number().min(0).max(5).nullable().optional(),
  stop: stopSchema.optional(),
  /** Only one choice is generated; other values are refused rather than silently ignored. */
  n: z.literal(1).nullable().optional(),
  user: z.string().max(256).optional(),
  // Accepted for client compatibility; Perch does not return log probabilities.
  logprobs: z.literal(false).nullable().optional(),
  logit_bias: z.record(z.string(), z.number()).nullable().optional(),
};

export const chatCompletionRequestSchema = z
  .object({
    ...samplingFields,
    messages: z.array(openAiMessageSchema).min(1).max(10_000),
    max_completion_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
    response_format: responseFormatSchema.optional(),
    /**
     * llama-server/vLLM style: `enable_thinking: false` switches a reasoning model's thinking off
     * (`true` leaves it on). Other keys are accepted and ignored.
     */
    chat_template_kwargs: z.record(z.string(), z.unknown()).optional(),
    /** `none` switches thinking off; any other effort leaves it on (there are no effort levels). */
    reasoning_effort: z.enum(["none", "minimal", "low", "medium", "high"]).nullable().optional(),
    store: z.boolean().nullable().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    parallel_tool_calls: z.boolean().optional(),
  })
  .strict();
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

export const completionRequestSchema = z
  .object({
    ...samplingFields,
    prompt: z.union([z.string(), z.array(z.string()).length(1)]),
    echo: z.boolean().nullable().optional(),
    suffix: z.string().nullable().optional(),
    best_of: z.literal(1).nullable().optional(),
  })
  .strict();
export type CompletionRequest = z.infer<typeof completionRequestSchema>;

export const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  prompt_tokens_details: z.object({ cached_tokens: z.number().int() }).optional(),
  /** Perch extension: per-request timing and speculative-decoding counts. */
  perch: z
    .object({
      queue_wait_ms: z.number(),
      ttft_ms: z.number(),
      prompt_tokens_per_second: z.number(),
      generation_tokens_per_second: z.number(),
      total_ms: z.number(),
      speculative: z.object({ validated: z.number().int(), refuted: z.number().int() }).optional(),
    })
    .optional(),
});
export type Usage = z.infer<typeof usageSchema>;

export const finishReasonSchema = z.enum(["stop", "length"]);

export const chatCompletionResponseSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  system_fingerprint: z.string().optional(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal("assistant"),
        content: z.string(),
        /** The model's reasoning, when it reasoned (DeepSeek / llama-server field name). */
        reasoning_content: z.string().optional(),
        refusal: z.null(),
      }),
      finish_reason: finishReasonSchema,
      logprobs: z.null(),
    }),
  ),
  usage: usageSchema,
});

export const completionResponseSchema = z.object({
  id: z.string(),
  object: z.literal("text_completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      text: z.string(),
      finish_reason: finishReasonSchema,
      logprobs: z.null(),
    }),
  ),
  usage: usageSchema,
});

export const modelListResponseSchema = z.object({
  object: z.literal("list"),
  data: z.array(
    z.object({ id: z.string(), object: z.literal("model"), created: z.number().int(), owned_by: z.string() }),
  ),
});

/**
 * The OpenAI-compatible routes (`/v1/*`), as the admin API's `apiRoutes` describes its own: the
 * server registers them at these paths and the OpenAPI document is built from this table.
 * `stream: true` in a body switches the two completion routes to server-sent events.
 */
export const openAiRoutes = {
  listModels: {
    method: "GET",
    path: "/v1/models",
    summary: "List the models clients may name",
    response: modelListResponseSchema,
  },
  chatCompletions: {
    method: "POST",
    path: "/v1/chat/completions",
    summary: "OpenAI chat completion (SSE when stream is true)",
    body: chatCompletionRequestSchema,
    response: chatCompletionResponseSchema,
  },
  completions: {
    method: "POST",
    path: "/v1/completions",
    summary: "OpenAI text completion (SSE when stream is true)",
    body: completionRequestSchema,
    response: completionResponseSchema,
  },
} as const;
