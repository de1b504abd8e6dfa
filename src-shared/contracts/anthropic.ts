import { z } from "zod";

const textBlockSchema = z
  .object({ type: z.literal("text"), text: z.string(), cache_control: z.unknown().optional() })
  .strict();
const contentSchema = z.union([z.string(), z.array(textBlockSchema).max(1000)]);

export const anthropicMessagesRequestSchema = z
  .object({
    model: z.string().min(1).max(512),
    max_tokens: z.number().int().min(1).max(1_000_000),
    messages: z
      .array(z.object({ role: z.enum(["user", "assistant"]), content: contentSchema }).strict())
      .min(1)
      .max(10_000),
    system: contentSchema.optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).max(1000).optional(),
    stop_sequences: z.array(z.string().min(1).max(512)).max(16).optional(),
    /**
     * `disabled` switches a reasoning model's thinking off; `enabled` leaves it on (the budget is
     * not enforced: local models stop thinking on their own). Absent: the model decides.
     */
    thinking: z
      .discriminatedUnion("type", [
        z.object({ type: z.literal("enabled"), budget_tokens: z.number().int().min(1) }).strict(),
        z.object({ type: z.literal("disabled") }).strict(),
      ])
      .optional(),
    metadata: z
      .object({ user_id: z.string().max(256).optional() })
      .strict()
      .optional(),
  })
  .strict();
export type AnthropicMessagesRequest = z.infer<typeof anthropicMessagesRequestSchema>;

export const anthropicMessageResponseSchema = z.object({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  /** A `thinking` block (the model's reasoning) comes first when the model reasoned. */
  content: z.array(
    z.discriminatedUnion("type", [
      z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
      z.object({ type: z.literal("text"), text: z.string() }),
    ]),
  ),
  stop_reason: z.enum(["end_turn", "max_tokens", "stop_sequence"]),
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

/** The Anthropic-compatible route, in the shape of `openAiRoutes` (server paths and OpenAPI). */
export const anthropicRoutes = {
  messages: {
    method: "POST",
    path: "/v1/messages",
    summary: "Anthropic Messages API (SSE events when stream is true)",
    body: anthropicMessagesRequestSchema,
    response: anthropicMessageResponseSchema,
  },
} as const;
