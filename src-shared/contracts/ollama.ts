import { z } from "zod";
import { toolParametersSchema } from "./primitives.js";

/*
 * Ollama's HTTP API (`/api/*`) as Perch serves it. Like Ollama, unknown fields do not fail a
 * request: they are listed in the `x-perch-ignored-fields` response header instead. Fields
 * Perch cannot honour and that would change the answer (images, a custom template, `context`;
 * `suffix` on a model without fill-in-the-middle tokens) are refused with a 400 naming them.
 */

const modelNameSchema = z.string().min(1).max(512);

/** A duration: seconds as a number, or Go's duration text (`"5m"`, `"1h30m"`, `"-1"`). */
export const ollamaKeepAliveSchema = z.union([z.number().min(-1e9).max(1e9), z.string().max(64)]);

/** `"json"`, a JSON schema, or `""` (no constraint). */
export const ollamaFormatSchema = z.union([
  z.literal(""),
  z.literal("json"),
  z.record(z.string(), z.unknown()),
]);

export const ollamaThinkSchema = z.union([z.boolean(), z.enum(["high", "medium", "low"])]);

/** Sampling options Perch maps; any other option is accepted and reported as ignored. */
export const ollamaOptionsSchema = z
  .object({
    /** Any size, as llama.cpp takes it (0 is greedy). */
    temperature: z.number().min(0).optional(),
    top_p: z.number().min(0).max(1).optional(),
    /** Any size: llama.cpp keeps at most the vocabulary (0: no limit). */
    top_k: z.number().int().min(0).optional(),
    min_p: z.number().min(0).max(1).optional(),
    /**
     * Any integer, as Ollama (`Date.now()` is common); -1 samples unseeded. The sampler takes 32
     * bits: others are reduced modulo 2^32 (`ollamaGenerationFields`).
     */
    seed: z.number().refine(Number.isInteger, { message: "Invalid input: expected an integer" }).optional(),
    /** Tokens to generate; -1 (no limit) and -2 (fill the context) both mean "until the context ends". */
    num_predict: z.number().int().min(-2).max(1_000_000).optional(),
    stop: z.array(z.string().min(1).max(512)).max(16).optional(),
    repeat_penalty: z.number().min(0).max(5).optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
  })
  .catchall(z.unknown());
export type OllamaOptions = z.infer<typeof ollamaOptionsSchema>;

/** Options that are mapped; the rest of `options` is reported in `x-perch-ignored-fields`. */
export const mappedOllamaOptions = Object.keys(ollamaOptionsSchema.shape);

const toolCallSchema = z
  .object({
    function: z
      .object({
        name: z.string().min(1).max(256),
        arguments: z.record(z.string(), z.unknown()),
      })
      .loose(),
  })
  .loose();

export const ollamaMessageSchema = z
  .object({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.string().default(""),
    images: z.array(z.string()).nullable().optional(),
    thinking: z.string().optional(),
    tool_calls: z.array(toolCallSchema).max(128).optional(),
    tool_name: z.string().max(256).optional(),
  })
  .loose();
export type OllamaMessage = z.infer<typeof ollamaMessageSchema>;

export const ollamaToolSchema = z
  .object({
    type: z.literal("function"),
    function: z
      .object({
        name: z.string().min(1).max(256),
        description: z.string().max(100_000).optional(),
        parameters: toolParametersSchema.optional(),
      })
      .loose(),
  })
  .loose();

const commonGenerationFields = {
  model: modelNameSchema,
  /** Defaults to `true`: NDJSON lines, one per piece of text, then a final `done: true` line. */
  stream: z.boolean().optional(),
  format: ollamaFormatSchema.optional(),
  options: ollamaOptionsSchema.optional(),
  keep_alive: ollamaKeepAliveSchema.optional(),
  think: ollamaThinkSchema.optional(),
  /** `true`: each answer token's log probability in `logprobs` (of each line when streaming). */
  logprobs: z.boolean().optional(),
  /** Most likely candidates per token, 0–20; needs `logprobs: true`. */
  top_logprobs: z.number().int().min(0).max(20).optional(),
};

export const ollamaChatRequestSchema = z
  .object({
    ...commonGenerationFields,
    /** Empty: only loads the model (`done_reason: "load"`), or unloads it with `keep_alive: 0`. */
    messages: z.array(ollamaMessageSchema).max(10_000).default([]),
    tools: z.array(ollamaToolSchema).max(128).optional(),
    /**
     * Perch extension (Ollama has none; the model decides): OpenAI's `tool_choice` — `auto`,
     * `none`, `required` or `{type: "function", function: {name}}`; the last two force a call by
     * grammar. Defaults to `auto`.
     */
    tool_choice: z
      .union([
        z.enum(["auto", "none", "required"]),
        z
          .object({
            type: z.literal("function"),
            function: z.object({ name: z.string().min(1).max(256) }).strict(),
          })
          .strict(),
      ])
      .optional(),
  })
  .loose();
export type OllamaChatRequest = z.infer<typeof ollamaChatRequestSchema>;

export const ollamaGenerateRequestSchema = z
  .object({
    ...commonGenerationFields,
    /** Empty: only loads the model, or unloads it with `keep_alive: 0`. */
    prompt: z.string().default(""),
    system: z.string().optional(),
    /** `true`: the prompt goes to the model as is, without the chat template. */
    raw: z.boolean().optional(),
    /** Fill-in-the-middle: the text after the gap (`prompt` is before it); needs FIM tokens. */
    suffix: z
      .string()
      .optional()
      .describe(
        "Fill-in-the-middle: the text after the gap (`prompt` is before it); needs a model with FIM tokens, else a 400 naming `suffix`.",
      ),
    template: z.string().optional(),
    context: z.array(z.number().int()).optional(),
    images: z.array(z.string()).nullable().optional(),
  })
  .loose();
export type OllamaGenerateRequest = z.infer<typeof ollamaGenerateRequestSchema>;

export const ollamaEmbedRequestSchema = z
  .object({
    model: modelNameSchema,
    /** `""` embeds nothing (`embeddings: []`; the model is loaded, as Ollama does); list items may not be empty. */
    /** `""` and `[]` embed nothing (200, no vectors), as Ollama. */
    input: z.union([z.string(), z.array(z.string().min(1, "must not be empty")).max(2048)]),
    /** Defaults to `true`: inputs over the context are cut to fit; `false` refuses them. */
    truncate: z.boolean().optional(),
    dimensions: z.number().int().min(1).max(1_000_000).optional(),
    keep_alive: ollamaKeepAliveSchema.optional(),
    options: ollamaOptionsSchema.optional(),
  })
  .loose();

/** The legacy `/api/embeddings`: one prompt, one vector (not normalized). */
export const ollamaEmbeddingsRequestSchema = z
  .object({
    model: modelNameSchema,
    prompt: z.string(),
    keep_alive: ollamaKeepAliveSchema.optional(),
    options: ollamaOptionsSchema.optional(),
  })
  .loose();

/** `model`, or the older `name` the `ollama` clients still send for pull and delete. */
const namedModel = {
  model: modelNameSchema.optional(),
  name: modelNameSchema.optional(),
};
const oneName = (body: { model?: string; name?: string }) =>
  body.model !== undefined || body.name !== undefined;

export const ollamaShowRequestSchema = z
  .object({ ...namedModel, verbose: z.boolean().optional() })
  .loose()
  .refine(oneName, { message: "give 'model'", path: ["model"] });

export const ollamaPullRequestSchema = z
  .object({ ...namedModel, insecure: z.boolean().optional(), stream: z.boolean().optional() })
  .loose()
  .refine(oneName, { message: "give 'model'", path: ["model"] });

export const ollamaDeleteRequestSchema = z
  .object(namedModel)
  .loose()
  .refine(oneName, { message: "give 'model'", path: ["model"] });

export const ollamaDetailsSchema = z.object({
  parent_model: z.string(),
  format: z.string(),
  family: z.string(),
  families: z.array(z.string()).nullable(),
  parameter_size: z.string(),
  quantization_level: z.string(),
});
export type OllamaDetails = z.infer<typeof ollamaDetailsSchema>;

const ollamaModelSchema = z.object({
  name: z.string(),
  model: z.string(),
  modified_at: z.string(),
  size: z.number().int(),
  digest: z.string(),
  details: ollamaDetailsSchema,
});

export const ollamaTagsResponseSchema = z.object({ models: z.array(ollamaModelSchema) });

export const ollamaPsResponseSchema = z.object({
  models: z.array(
    ollamaModelSchema.omit({ modified_at: true }).extend({
      expires_at: z.string(),
      size_vram: z.number().int(),
      context_length: z.number().int().optional(),
    }),
  ),
});

export const ollamaShowResponseSchema = z.object({
  license: z.string().optional(),
  modelfile: z.string(),
  parameters: z.string(),
  template: z.string(),
  details: ollamaDetailsSchema,
  model_info: z.record(z.string(), z.unknown()),
  capabilities: z.array(z.string()),
  modified_at: z.string(),
});

const ollamaTokenLogprobSchema = z.object({
  token: z.string(),
  /** Natural log; a probability of zero is -9999. */
  logprob: z.number(),
  /** The token's UTF-8 bytes. */
  bytes: z.array(z.number().int()).optional(),
});

/** Ollama's `logprobs`: the answer's tokens (of this line, when streaming), with their candidates. */
const ollamaLogprobsSchema = z.array(
  ollamaTokenLogprobSchema.extend({ top_logprobs: z.array(ollamaTokenLogprobSchema).optional() }),
);

const timingFields = {
  total_duration: z.number().int(),
  load_duration: z.number().int(),
  prompt_eval_count: z.number().int(),
  prompt_eval_duration: z.number().int(),
  eval_count: z.number().int(),
  eval_duration: z.number().int(),
};

export const ollamaChatResponseSchema = z.object({
  model: z.string(),
  created_at: z.string(),
  message: z.object({
    role: z.literal("assistant"),
    content: z.string(),
    thinking: z.string().optional(),
    tool_calls: z.array(toolCallSchema).optional(),
  }),
  done: z.boolean(),
  done_reason: z.string().optional(),
  logprobs: ollamaLogprobsSchema.optional(),
  ...z.object(timingFields).partial().shape,
});

export const ollamaGenerateResponseSchema = z.object({
  model: z.string(),
  created_at: z.string(),
  response: z.string(),
  thinking: z.string().optional(),
  done: z.boolean(),
  done_reason: z.string().optional(),
  logprobs: ollamaLogprobsSchema.optional(),
  ...z.object(timingFields).partial().shape,
});

export const ollamaEmbedResponseSchema = z.object({
  model: z.string(),
  embeddings: z.array(z.array(z.number())),
  total_duration: z.number().int(),
  load_duration: z.number().int(),
  prompt_eval_count: z.number().int(),
});

export const ollamaEmbeddingsResponseSchema = z.object({ embedding: z.array(z.number()) });

/** One NDJSON line of `/api/pull`. */
export const ollamaProgressSchema = z.object({
  status: z.string(),
  digest: z.string().optional(),
  total: z.number().int().optional(),
  completed: z.number().int().optional(),
});

export const ollamaVersionResponseSchema = z.object({ version: z.string() });

/** Ollama's error shape; Perch adds the stable code in the `x-perch-error-code` header. */
export const ollamaErrorSchema = z.object({ error: z.string() });
