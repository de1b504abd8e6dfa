import { z } from "zod";
import { toolParametersSchema } from "./primitives.js";

/** Extra part fields (`cache_control` from Anthropic-style proxies) are dropped and named as ignored. */
const textPartSchema = z.object({ type: z.literal("text"), text: z.string() });
/** An assistant's refusal, as clients send a conversation back: its text, like a text part. */
const refusalPartSchema = z
  .object({ type: z.literal("refusal"), refusal: z.string() })
  .transform((part) => ({ type: "text" as const, text: part.refusal }));
/** OpenAI message content: a string or an array of text (or refusal) parts (images are not supported). */
export const openAiContentSchema = z.union(
  [z.string(), z.array(z.union([textPartSchema, refusalPartSchema])).max(1000)],
  {
    error:
      "content is a string or a list of text parts (at most 1000); image_url, input_audio and file parts are not supported (Perch serves text models).",
  },
);

/** What a tool may be called: OpenAI's own rule for function names. */
export const toolNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 letters, digits, _ or -");

/** A call the assistant made, as clients send it back in the conversation. */
export const openAiToolCallSchema = z.object({
  id: z.string().min(1).max(256),
  type: z.literal("function"),
  function: z.object({ name: toolNameSchema, arguments: z.string().max(1_000_000) }),
});

/**
 * Objects in messages are not strict: fields clients echo back (`refusal`, `annotations`, `audio`
 * ids...) are dropped and named in `x-perch-ignored-fields`, never a reason to fail.
 */
export const openAiMessageSchema = z.object({
  /** `function`: a legacy function result (answers the assistant's latest `function_call`). */
  role: z.enum(["system", "developer", "user", "assistant", "tool", "function"]),
  content: openAiContentSchema.nullable().optional(),
  name: z.string().max(256).optional(),
  /** Assistant messages: the calls it made. */
  tool_calls: z.array(openAiToolCallSchema).max(128).optional(),
  /** Legacy assistant messages: the one function call made. */
  function_call: z.object({ name: toolNameSchema, arguments: z.string().max(1_000_000) }).optional(),
  /** Tool messages: the call this result answers. */
  tool_call_id: z.string().min(1).max(256).optional(),
});

export const openAiToolSchema = z.object({
  type: z.literal("function"),
  function: z.object({
    name: toolNameSchema,
    description: z.string().max(100_000).optional(),
    /** JSON schema of the arguments object. */
    parameters: toolParametersSchema.optional(),
    /** Arguments are always grammar-constrained to the schema, strict or not. */
    strict: z.boolean().nullable().optional(),
  }),
});

export const openAiToolChoiceSchema = z.union([
  z.enum(["none", "auto", "required"]),
  z.object({ type: z.literal("function"), function: z.object({ name: toolNameSchema }).strict() }).strict(),
]);

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
  stream_options: z.object({ include_usage: z.boolean().nullable().optional() }).nullable().optional(),
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
  /** llama-server's and vLLM's extension: generate through end-of-generation tokens up to `max_tokens`. */
  ignore_eos: z.boolean().nullable().optional(),
  stop: stopSchema.optional(),
  /** Choices to generate (parallel sequences), at most 8. */
  n: z.number().int().min(1).max(8).nullable().optional(),
  user: z.string().max(256).optional(),
  /** Token id → value added to its logit (-100 bans the token). */
  logit_bias: z.record(z.string(), z.number().min(-100).max(100)).nullable().optional(),
  /** Hosted-service routing: changes nothing for a local model. */
  service_tier: z.string().max(64).nullable().optional(),
};

/**
 * Unknown fields are not refused: they are stripped, named in the `x-perch-ignored-fields` response
 * header and logged (README, "Request fields"); every field listed here is honoured or refused.
 */
export const chatCompletionRequestSchema = z.object({
  ...samplingFields,
  messages: z.array(openAiMessageSchema).min(1).max(10_000),
  tools: z.array(openAiToolSchema).max(128).nullable().optional(),
  tool_choice: openAiToolChoiceSchema.nullable().optional(),
  /** Whether the model may call several tools in one turn. Defaults to `true`. */
  parallel_tool_calls: z.boolean().nullable().optional(),
  /** `true`: each answer token's log probability in `choices[].logprobs.content`. */
  logprobs: z.boolean().nullable().optional(),
  /** Most likely candidates per token (0–20, OpenAI's bounds); needs `logprobs: true`. */
  top_logprobs: z.number().int().min(0).max(20).nullable().optional(),
  /** Only text output exists locally: `["text"]` is accepted, anything else refused. */
  modalities: z.array(z.string()).max(4).nullable().optional(),
  /** Predicted output (a latency hint for hosted models): changes nothing locally. */
  prediction: z.unknown().optional(),
  /**
   * Legacy function calling, served as tools with one call per turn; the answer comes back in the
   * legacy shape (`message.function_call`, `finish_reason: "function_call"`). Not with `tools`.
   */
  functions: z
    .array(
      z.object({
        name: toolNameSchema,
        description: z.string().max(100_000).optional(),
        parameters: toolParametersSchema.optional(),
      }),
    )
    .max(128)
    .nullable()
    .optional(),
  function_call: z
    .union([z.enum(["none", "auto"]), z.object({ name: toolNameSchema }).strict()])
    .nullable()
    .optional(),
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
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

/** Prompts one `/v1/completions` request may list (each gets `n` choices). */
export const maxCompletionPrompts = 16;

export const completionRequestSchema = z.object({
  ...samplingFields,
  /**
   * One prompt (a string or a list of token ids) or several (a list of strings or of token-id
   * lists): each gets `n` choices, indexed prompt by prompt.
   */
  prompt: z.union(
    [
      z.string(),
      z.array(z.string()).min(1).max(maxCompletionPrompts),
      z.array(z.number().int()).min(1),
      z.array(z.array(z.number().int()).min(1)).min(1).max(maxCompletionPrompts),
    ],
    {
      error: `prompt must be a string, a list of token ids, or a list of 1 to ${maxCompletionPrompts} strings or token-id lists.`,
    },
  ),
  echo: z.boolean().nullable().optional(),
  /**
   * Legacy logprobs: each token's log probability and the `logprobs` (0–5) most likely candidates;
   * `false`/`null`: none. Prompt tokens (`echo`) have none.
   */
  logprobs: z
    .union([z.number().int().min(0).max(5), z.literal(false)])
    .nullable()
    .optional(),
  /**
   * Fill-in-the-middle: the text after the gap (`prompt` is the text before it). Needs a model with
   * FIM tokens; on any other a non-empty suffix is a 400 naming it. Empty or null: a plain completion.
   */
  suffix: z
    .string()
    .nullable()
    .optional()
    .describe(
      "Fill-in-the-middle: the text after the gap (`prompt` is the text before it). Needs a model with FIM tokens, else a 400 naming `suffix`; empty or null: a plain completion.",
    ),
  best_of: z
    .literal(1, {
      error:
        "best_of above 1 (drawing several completions and returning the best by log probability) is not offered; ask for n choices and pick one.",
    })
    .nullable()
    .optional(),
});
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

const tokenLogprobSchema = z.object({
  token: z.string(),
  /** Natural log; a probability of zero is -9999 (JSON has no -Infinity). */
  logprob: z.number(),
  /** The token's UTF-8 bytes. */
  bytes: z.array(z.number().int()).nullable(),
});

/** `choices[].logprobs` of a chat completion (and of each streamed chunk: the delta's tokens). */
export const chatLogprobsSchema = z.object({
  content: z.array(tokenLogprobSchema.extend({ top_logprobs: z.array(tokenLogprobSchema) })).nullable(),
  refusal: z.null(),
});
export type ChatLogprobs = z.infer<typeof chatLogprobsSchema>;

/** `choices[].logprobs` of a legacy text completion. */
export const completionLogprobsSchema = z.object({
  tokens: z.array(z.string()),
  token_logprobs: z.array(z.number()),
  /** Per token: candidate text → log probability (the chosen token always among them). */
  top_logprobs: z.array(z.record(z.string(), z.number())),
  /** Per token: where it starts in the choice's `text`. */
  text_offset: z.array(z.number().int()),
});
export type CompletionLogprobs = z.infer<typeof completionLogprobsSchema>;

export const finishReasonSchema = z.enum(["stop", "length", "tool_calls", "function_call"]);

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
        /** `null` when the model only called tools. */
        content: z.string().nullable(),
        tool_calls: z.array(openAiToolCallSchema).optional(),
        /** Legacy `functions` requests: the call, instead of `tool_calls`. */
        function_call: z.object({ name: z.string(), arguments: z.string() }).optional(),
        /** The model's reasoning, when it reasoned (DeepSeek / llama-server field name). */
        reasoning_content: z.string().optional(),
        refusal: z.null(),
      }),
      finish_reason: finishReasonSchema,
      /** Present when the request asked for `logprobs`. */
      logprobs: chatLogprobsSchema.nullable(),
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
      logprobs: completionLogprobsSchema.nullable(),
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
    summary: "OpenAI chat completion with tool calling (SSE when stream is true)",
    body: chatCompletionRequestSchema,
    response: chatCompletionResponseSchema,
    namesIgnoredFields: true,
  },
  completions: {
    method: "POST",
    path: "/v1/completions",
    summary: "OpenAI text completion (SSE when stream is true)",
    body: completionRequestSchema,
    response: completionResponseSchema,
    namesIgnoredFields: true,
  },
} as const;
