import { z } from "zod";
import { toolParametersSchema } from "./primitives.js";

/**
 * Block objects are not strict: fields the contract does not know (`citations`, new annotations)
 * are dropped and named in `x-perch-ignored-fields`. `cache_control` is accepted and changes nothing
 * (Perch reuses cached prompt prefixes by itself).
 */
const textBlockSchema = z.object({
  type: z.literal("text"),
  text: z.string(),
  cache_control: z.unknown().optional(),
});

/** How thinking is shown (summarized or omitted): local models always return it whole. */
const displaySchema = z.enum(["summarized", "omitted"]).nullish();

/** A tool name, as Anthropic allows it. */
const toolNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "1 to 128 letters, digits, _ or -");

const toolUseBlockSchema = z.object({
  type: z.literal("tool_use"),
  id: z.string().min(1).max(256),
  name: toolNameSchema,
  input: z.record(z.string(), z.unknown(), {
    error: "a tool_use block's input is an object (the call's arguments), not a string or a list.",
  }),
  cache_control: z.unknown().optional(),
});

const toolResultBlockSchema = z.object({
  type: z.literal("tool_result"),
  tool_use_id: z.string().min(1).max(256),
  content: z
    .union([z.string(), z.array(textBlockSchema).max(1000)], {
      error:
        "a tool result's content is a string or a list of text blocks; image and document blocks are not supported (Perch serves text models).",
    })
    .optional(),
  is_error: z.boolean().optional(),
  cache_control: z.unknown().optional(),
});

/** Thinking blocks clients send back with earlier turns: accepted and left out of the prompt (as Anthropic does). */
const thinkingBlockSchema = z.object({
  type: z.literal("thinking"),
  thinking: z.string(),
  signature: z.string().optional(),
});
const redactedThinkingBlockSchema = z.object({ type: z.literal("redacted_thinking"), data: z.string() });

const blockSchema = z.discriminatedUnion("type", [
  textBlockSchema,
  toolUseBlockSchema,
  toolResultBlockSchema,
  thinkingBlockSchema,
  redactedThinkingBlockSchema,
]);
export type AnthropicContentBlock = z.infer<typeof blockSchema>;

const contentSchema = z.union([z.string(), z.array(blockSchema).max(1000)], {
  error:
    "content is a string or a list of text, tool_use, tool_result and thinking blocks (at most 1000); image and document blocks are not supported (Perch serves text models).",
});
const systemSchema = z.union([z.string(), z.array(textBlockSchema).max(1000)]);

export const anthropicToolSchema = z.object({
  /** Client tools only; Anthropic's server tools (web search, code execution) do not exist locally. */
  type: z
    .literal("custom", {
      error:
        "only client tools (type 'custom' or none) are supported; Anthropic's server tools (web search, code execution, bash, text editor) do not run locally.",
    })
    .optional(),
  name: toolNameSchema,
  description: z.string().max(100_000).optional(),
  input_schema: toolParametersSchema,
  cache_control: z.unknown().optional(),
});

const parallelSwitch = { disable_parallel_tool_use: z.boolean().optional() };
export const anthropicToolChoiceSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("auto"), ...parallelSwitch }),
  z.object({ type: z.literal("any"), ...parallelSwitch }),
  z.object({ type: z.literal("tool"), name: toolNameSchema, ...parallelSwitch }),
  z.object({ type: z.literal("none") }),
]);

/**
 * Unknown top-level fields are not refused: they are stripped, named in `x-perch-ignored-fields`
 * and logged (README, "Request fields").
 */
export const anthropicMessagesRequestSchema = z.object({
  model: z.string().min(1).max(512),
  max_tokens: z.number().int().min(1).max(1_000_000),
  /**
   * `system` messages (text only) may sit between the turns: the model reads them there, as a
   * system turn at that position.
   */
  messages: z
    .array(
      z.discriminatedUnion("role", [
        z.object({ role: z.enum(["user", "assistant"]), content: contentSchema }),
        z.object({ role: z.literal("system"), content: systemSchema }),
      ]),
    )
    .min(1)
    .max(10_000),
  system: systemSchema.optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).max(1000).optional(),
  stop_sequences: z.array(z.string().min(1).max(512)).max(16).optional(),
  tools: z.array(anthropicToolSchema).max(128).optional(),
  tool_choice: anthropicToolChoiceSchema.optional(),
  /**
   * `disabled` switches a reasoning model's thinking off; `enabled`, `adaptive` and `between_tools`
   * leave it on (the budget is not enforced: local models stop thinking on their own; `display`
   * changes nothing, the thinking is always returned). Absent: the model decides.
   */
  thinking: z
    .discriminatedUnion("type", [
      z
        .object({
          type: z.literal("enabled"),
          budget_tokens: z.number().int().min(1),
          display: displaySchema,
        })
        .strict(),
      z.object({ type: z.literal("adaptive"), display: displaySchema }).strict(),
      z.object({ type: z.literal("between_tools") }).strict(),
      z.object({ type: z.literal("disabled") }).strict(),
    ])
    .optional(),
  /**
   * `format` constrains the answer's text to a JSON schema by grammar, as OpenAI's
   * `response_format` does; `effort` changes nothing locally.
   */
  output_config: z
    .object({
      format: z
        .object({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) })
        .nullish(),
      effort: z.enum(["low", "medium", "high", "xhigh", "max"]).nullish(),
    })
    .nullish(),
  /**
   * Message threads: `create` keeps the conversation (system, tools, messages and the answer) under
   * the answer's id; `continue` goes on from the answer `previous_message_id` names, with only the
   * new messages (the thread's `system` and `tools` are its own).
   */
  thread: z
    .discriminatedUnion("type", [
      z.object({ type: z.literal("create") }).strict(),
      z.object({ type: z.literal("continue"), previous_message_id: z.string().min(1).max(256) }).strict(),
    ])
    .nullish(),
  metadata: z
    .object({ user_id: z.string().max(256).nullable().optional() })
    .strict()
    .optional(),
  /** Hosted-service routing: changes nothing for a local model. */
  service_tier: z.string().max(64).optional(),
});
export type AnthropicMessagesRequest = z.infer<typeof anthropicMessagesRequestSchema>;

export const anthropicMessageResponseSchema = z.object({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  /** A `thinking` block (the model's reasoning) comes first when the model reasoned; `tool_use` blocks last. */
  content: z.array(
    z.discriminatedUnion("type", [
      z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
      z.object({ type: z.literal("text"), text: z.string() }),
      z.object({
        type: z.literal("tool_use"),
        id: z.string(),
        name: z.string(),
        input: z.record(z.string(), z.unknown()),
      }),
    ]),
  ),
  /** `model_context_window_exceeded`: the context filled up before `max_tokens` was reached. */
  stop_reason: z.enum([
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "model_context_window_exceeded",
  ]),
  stop_sequence: z.string().nullable(),
  /**
   * Anthropic's accounting: `input_tokens` are the prompt tokens evaluated, `cache_read_input_tokens`
   * those reused from the prompt cache (together: the whole prompt).
   */
  usage: z.object({
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cache_read_input_tokens: z.number().int(),
    cache_creation_input_tokens: z.number().int(),
  }),
});

/**
 * `POST /v1/messages/count_tokens`: what a Messages request's prompt counts, without generating
 * (the fields that shape the prompt; no `max_tokens`).
 */
export const anthropicCountTokensRequestSchema = anthropicMessagesRequestSchema
  .pick({ model: true, messages: true, system: true, tools: true, tool_choice: true, thinking: true })
  .extend({ max_tokens: z.number().int().min(1).max(1_000_000).optional() });
export type AnthropicCountTokensRequest = z.infer<typeof anthropicCountTokensRequestSchema>;

export const anthropicCountTokensResponseSchema = z.object({
  /** The whole prompt as the model's chat template renders it, tool definitions included. */
  input_tokens: z.number().int(),
});

/**
 * `GET /v1/models` from an Anthropic client: a page of `limit` models (20 unless set, as
 * Anthropic), after `after_id` or before `before_id`.
 */
export const anthropicModelPageQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(20),
    after_id: z.string().min(1).max(1024).optional(),
    before_id: z.string().min(1).max(1024).optional(),
  })
  .refine((query) => !(query.after_id && query.before_id), {
    message: "give after_id or before_id, not both",
    path: ["before_id"],
  });
export type AnthropicModelPageQuery = z.infer<typeof anthropicModelPageQuerySchema>;

/** The Anthropic-compatible routes, in the shape of `openAiRoutes` (server paths and OpenAPI). */
export const anthropicRoutes = {
  messages: {
    method: "POST",
    path: "/v1/messages",
    summary: "Anthropic Messages API with tool use (SSE events when stream is true)",
    body: anthropicMessagesRequestSchema,
    response: anthropicMessageResponseSchema,
    namesIgnoredFields: true,
  },
  countTokens: {
    method: "POST",
    path: "/v1/messages/count_tokens",
    summary: "Tokens a Messages request's prompt counts (system, messages, tools), without generating",
    body: anthropicCountTokensRequestSchema,
    response: anthropicCountTokensResponseSchema,
    namesIgnoredFields: true,
  },
} as const;
