import { z } from "zod";
import { toolParametersSchema } from "./primitives.js";

/**
 * OpenAI's Responses API (`/v1/responses`), the text and function-calling part: what the `openai`
 * SDK's `responses.create/stream/retrieve/delete` and LangChain's `useResponsesApi` send. Unknown
 * fields are dropped and named in `x-perch-ignored-fields`, as on the chat route.
 */

const plainTextPartSchema = z.object({
  type: z.enum(["input_text", "output_text"]),
  text: z.string(),
});
/** A refusal in an earlier output, sent back with the conversation: its text, as an output_text part. */
const textPartSchema = z.union([
  plainTextPartSchema,
  z
    .object({ type: z.literal("refusal"), refusal: z.string() })
    .transform((part) => ({ type: "output_text" as const, text: part.refusal })),
]);

const partsError =
  "content is a string or a list of input_text / output_text parts; images, files and audio are not supported (Perch serves text models).";

const messageItemSchema = z.object({
  type: z.literal("message").optional(),
  role: z.enum(["user", "assistant", "system", "developer"]),
  content: z.union([z.string(), z.array(textPartSchema).max(1000)], { error: partsError }),
});

const functionCallItemSchema = z.object({
  type: z.literal("function_call"),
  call_id: z.string().min(1).max(256),
  name: z.string().min(1).max(128),
  arguments: z.string().max(1_000_000),
});

const functionCallOutputItemSchema = z.object({
  type: z.literal("function_call_output"),
  call_id: z.string().min(1).max(256),
  output: z.union([z.string(), z.array(textPartSchema).max(1000)], { error: partsError }),
});

/** Reasoning items a client sends back with earlier turns: accepted and left out of the prompt. */
const reasoningItemSchema = z.object({ type: z.literal("reasoning") });

export const responseInputItemSchema = z.union(
  [functionCallItemSchema, functionCallOutputItemSchema, reasoningItemSchema, messageItemSchema],
  {
    error:
      "an input item is a message ({role, content: a string or input_text / output_text parts}), a function_call, a function_call_output or a reasoning item; images, files and audio are not supported (Perch serves text models).",
  },
);
export type ResponseInputItem = z.infer<typeof responseInputItemSchema>;

const functionToolSchema = z.object(
  {
    type: z.literal("function", {
      error: "tools are function tools ({type: 'function', name, parameters}); hosted tools are not offered.",
    }),
    name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "1 to 64 letters, digits, _ or -"),
    description: z.string().max(100_000).nullable().optional(),
    parameters: toolParametersSchema.nullable().optional(),
    strict: z.boolean().nullable().optional(),
  },
  { error: "tools are function tools ({type: 'function', name, parameters}); hosted tools are not offered." },
);

const formatSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text") }),
  z.object({ type: z.literal("json_object") }),
  z.object({
    type: z.literal("json_schema"),
    name: z.string().max(64).optional(),
    description: z.string().optional(),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullable().optional(),
  }),
]);

export const responseRequestSchema = z.object({
  model: z.string().min(1).max(512),
  input: z
    .union([z.string(), z.array(responseInputItemSchema).max(10_000)], {
      error:
        "input is a string or a list of items: messages ({role, content: a string or input_text / output_text parts}), function_call, function_call_output and reasoning items; images, files and audio are not supported (Perch serves text models).",
    })
    .optional(),
  instructions: z.string().max(1_000_000).nullable().optional(),
  previous_response_id: z.string().max(256).nullable().optional(),
  max_output_tokens: z.number().int().min(1).max(1_000_000).nullable().optional(),
  temperature: z.number().min(0).max(2).nullable().optional(),
  top_p: z.number().min(0).max(1).nullable().optional(),
  tools: z.array(functionToolSchema).max(128).optional(),
  tool_choice: z
    .union([
      z.enum(["auto", "none", "required"]),
      z.object({ type: z.literal("function"), name: z.string().min(1).max(128) }),
    ])
    .optional(),
  parallel_tool_calls: z.boolean().nullable().optional(),
  text: z.object({ format: formatSchema.optional() }).optional(),
  reasoning: z
    .object({ effort: z.enum(["none", "minimal", "low", "medium", "high"]).nullable().optional() })
    .nullable()
    .optional(),
  stream: z.boolean().nullable().optional(),
  /** Kept in memory (the last 256) so `previous_response_id` and `GET /v1/responses/{id}` find it. */
  store: z.boolean().nullable().optional(),
  metadata: z.record(z.string(), z.string().max(512)).nullable().optional(),
  user: z.string().max(256).optional(),
  // Fields that would change the answer and that Perch cannot honour: refused, not dropped (the
  // answer came back without that history, template or logprobs, only a header saying so).
  conversation: z
    .null({
      error:
        "conversation objects are not kept by Perch: continue with previous_response_id, or send the whole input.",
    })
    .optional(),
  prompt: z
    .null({ error: "stored prompt templates are not offered: send the instructions and the input." })
    .optional(),
  include: z
    .array(
      z.string().refine((value) => value !== "message.output_text.logprobs", {
        error: "logprobs are not offered on /v1/responses: ask /v1/chat/completions with logprobs: true.",
      }),
    )
    .nullable()
    .optional(),
});
export type ResponseRequest = z.infer<typeof responseRequestSchema>;

const statusSchema = z.enum(["completed", "incomplete", "in_progress"]);

/** A function call the model made: an output item, and the same item when listed as input. */
const functionCallRecordSchema = z.object({
  type: z.literal("function_call"),
  id: z.string(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: statusSchema,
});

const reasoningTextSchema = z.array(z.object({ type: z.literal("reasoning_text"), text: z.string() }));
const reasoningRecordSchema = z.object({
  type: z.literal("reasoning"),
  id: z.string(),
  summary: z.array(z.unknown()),
  content: reasoningTextSchema,
});

const outputItemSchema = z.union([
  z.object({
    type: z.literal("message"),
    id: z.string(),
    status: statusSchema,
    role: z.literal("assistant"),
    content: z.array(
      z.object({ type: z.literal("output_text"), text: z.string(), annotations: z.array(z.unknown()) }),
    ),
  }),
  functionCallRecordSchema,
  reasoningRecordSchema,
]);

export const responseObjectSchema = z.object({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.number().int(),
  status: statusSchema,
  model: z.string(),
  output: z.array(outputItemSchema),
  incomplete_details: z.object({ reason: z.literal("max_output_tokens") }).nullable(),
  usage: z
    .object({
      input_tokens: z.number().int(),
      input_tokens_details: z.object({ cached_tokens: z.number().int() }),
      output_tokens: z.number().int(),
      output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
      total_tokens: z.number().int(),
    })
    .nullable(),
});

/**
 * `GET /v1/responses/{id}/input_items`: a page of the items a stored response was given (the
 * conversation it continued, then its own input), newest first unless `order` is `asc`, after the
 * item `after`, at most `limit` (20 unless set, as OpenAI). `include` is accepted: the items are
 * given whole.
 */
export const responseInputItemsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  order: z.enum(["asc", "desc"]).default("desc"),
  after: z.string().min(1).max(256).optional(),
  include: z.union([z.string(), z.array(z.string())]).optional(),
});
export type ResponseInputItemsQuery = z.infer<typeof responseInputItemsQuerySchema>;

/** An input item as the list answers it: with its id (and a status), as OpenAI's items. */
export const storedInputItemSchema = z.union([
  z.object({
    type: z.literal("message"),
    id: z.string(),
    status: statusSchema,
    role: z.enum(["user", "assistant", "system", "developer"]),
    content: z.array(
      z.object({
        type: z.enum(["input_text", "output_text"]),
        text: z.string(),
        annotations: z.array(z.unknown()).optional(),
      }),
    ),
  }),
  functionCallRecordSchema,
  z.object({
    type: z.literal("function_call_output"),
    id: z.string(),
    call_id: z.string(),
    output: z.union([
      z.string(),
      z.array(z.object({ type: z.enum(["input_text", "output_text"]), text: z.string() })),
    ]),
    status: statusSchema,
  }),
  reasoningRecordSchema.extend({ content: reasoningTextSchema.optional() }),
]);
export type StoredInputItem = z.infer<typeof storedInputItemSchema>;

export const responseInputItemListSchema = z.object({
  object: z.literal("list"),
  data: z.array(storedInputItemSchema),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
  has_more: z.boolean(),
});

export const responseRoutes = {
  createResponse: {
    method: "POST",
    path: "/v1/responses",
    summary: "OpenAI Responses API: text and function calling (SSE events when stream is true)",
    body: responseRequestSchema,
    response: responseObjectSchema,
    namesIgnoredFields: true,
  },
  getResponse: {
    method: "GET",
    path: "/v1/responses/:id",
    summary: "A stored response (the last 256 kept in memory)",
    response: responseObjectSchema,
  },
  listInputItems: {
    method: "GET",
    path: "/v1/responses/:id/input_items",
    summary: "The input items of a stored response (the conversation it continued, then its input), paged",
    query: responseInputItemsQuerySchema,
    response: responseInputItemListSchema,
  },
  deleteResponse: {
    method: "DELETE",
    path: "/v1/responses/:id",
    summary: "Forget a stored response",
    response: z.object({ id: z.string(), object: z.literal("response"), deleted: z.literal(true) }),
  },
} as const;
