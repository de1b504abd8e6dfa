import { z } from "zod";
import { isoDateTimeSchema } from "./primitives.js";

/**
 * node-llama-cpp's chat formats (its specialized chat wrappers; `qwen3.5` is its Qwen wrapper's
 * 3.5 variation, which opens a thought at the start of every answer), plus `auto`.
 */
export const chatFormats = [
  "auto",
  "chatML",
  "qwen",
  "qwen3.5",
  "deepSeek",
  "harmony",
  "llama3.1",
  "llama3.2-lightweight",
  "llama3",
  "llama2Chat",
  "mistral",
  "gemma4",
  "gemma",
  "seed",
  "muse",
  "functionary",
  "falconChat",
  "alpacaChat",
  "general",
] as const;
export type ChatFormat = (typeof chatFormats)[number];

export const speculativeModeSchema = z.enum(["off", "draft", "lookup"]);

export const speculativeSettingsSchema = z
  .object({
    mode: speculativeModeSchema.default("off"),
    /** Model id (or absolute .gguf path) of the draft model, for `mode: "draft"`. */
    draftModel: z.string().min(1).max(512).optional(),
    /** Most tokens drafted ahead per step. */
    maxDraftTokens: z.number().int().min(1).max(64).optional(),
    /** Tokens the target waits for before each decode; 0 would leave predictions unused. */
    minDraftTokens: z.number().int().min(1).max(64).optional(),
  })
  .strict();
export type SpeculativeSettings = z.infer<typeof speculativeSettingsSchema>;

export const samplingSettingsSchema = z
  .object({
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    top_k: z.number().int().min(0).max(1000).optional(),
    min_p: z.number().min(0).max(1).optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
    repetition_penalty: z.number().min(0).max(5).optional(),
    max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();
export type SamplingSettings = z.infer<typeof samplingSettingsSchema>;

/** Per-model settings (`<base>/model_settings.json`). Every field is optional: unset means default. */
export const modelSettingsSchema = z
  .object({
    sampling: samplingSettingsSchema.optional(),
    /** Context size in tokens shared by all sequences' budgets; unset = min(model's train context, 8192). */
    context_size: z.number().int().min(256).max(1_048_576).optional(),
    /** Idle seconds before the model unloads; 0 = never. */
    ttl_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 24 * 3600)
      .optional(),
    pinned: z.boolean().optional(),
    alias: z.string().trim().min(1).max(128).optional(),
    /** Parallel sequences (continuous batching slots). Defaults to 8. */
    max_concurrent_requests: z.number().int().min(1).max(64).optional(),
    /** Waiting requests beyond the busy sequences; more answer 429. Defaults to 64. */
    max_queue: z.number().int().min(0).max(10_000).optional(),
    speculative: speculativeSettingsSchema.optional(),
    /**
     * How chat messages become the prompt, and which parts of the output are reasoning: `auto`
     * (the default) follows the GGUF's chat template; a name forces that format.
     */
    chat_format: z.enum(chatFormats).optional(),
    /** KV cache element type; anything but f16 is experimental. */
    kv_cache_type: z.enum(["f16", "q8_0", "q4_0"]).optional(),
    /**
     * MiB of evicted sequence states (prompt cache) kept in memory; 0 = none. Defaults to
     * `promptCacheDefaults.ram_mib`.
     */
    prompt_cache_ram_mib: z.number().int().min(0).max(1_048_576).optional(),
    /**
     * MiB of sequence states kept under `<base>/cache/kv/` (they survive a restart); 0 = none.
     * Defaults to `promptCacheDefaults.disk_mib`.
     */
    prompt_cache_disk_mib: z.number().int().min(0).max(16_777_216).optional(),
    tags: z.array(z.string()).max(64).optional(),
  })
  .strict();
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** Most characters a tag keeps after normalization (longer tags are cut, not rejected). */
export const maxTagLength = 64;

/** Tags the UI offers from the GGUF header (expert count); they are never applied automatically. */
export const suggestedModelTags = ["Dense", "MoE"] as const;
export type SuggestedModelTag = (typeof suggestedModelTags)[number];

/**
 * Where a `ModelSettings` field may travel: `universal` fields are allowed in templates (global,
 * applied to any model) and profiles (per model); `model_specific` ones only in profiles, since
 * they depend on the model (its context length, its draft model); `excluded` ones never leave the
 * model's own settings (identity and bookkeeping: tags, pinned, alias).
 */
export type ModelSettingsFieldClass = "universal" | "model_specific" | "excluded";

/** Every `ModelSettings` field, classified exactly once (a test fails when one is missing). */
export const modelSettingsFieldClasses = {
  sampling: "universal",
  context_size: "model_specific",
  ttl_seconds: "universal",
  pinned: "excluded",
  alias: "excluded",
  max_concurrent_requests: "universal",
  max_queue: "universal",
  speculative: "model_specific",
  kv_cache_type: "universal",
  prompt_cache_ram_mib: "universal",
  prompt_cache_disk_mib: "universal",
  chat_format: "model_specific",
  tags: "excluded",
} as const satisfies Record<keyof ModelSettings, ModelSettingsFieldClass>;

/**
 * When a changed `ModelSettings` field takes effect on a model that is loaded: `now` (the next
 * request) or `next_load` (it shapes the context or the chat format: Reload runtime, or the next
 * load after an unload).
 */
export const modelSettingsAppliesAt = {
  sampling: "now",
  context_size: "next_load",
  ttl_seconds: "now",
  pinned: "now",
  alias: "now",
  max_concurrent_requests: "next_load",
  max_queue: "now",
  speculative: "next_load",
  kv_cache_type: "next_load",
  prompt_cache_ram_mib: "now",
  prompt_cache_disk_mib: "now",
  chat_format: "next_load",
  tags: "now",
} as const satisfies Record<keyof ModelSettings, "now" | "next_load">;

type FieldClasses = typeof modelSettingsFieldClasses;
type FieldsOf<C extends ModelSettingsFieldClass> = {
  [K in keyof FieldClasses]: FieldClasses[K] extends C ? K : never;
}[keyof FieldClasses];

function fieldMask<C extends ModelSettingsFieldClass>(...wanted: C[]): { [K in FieldsOf<C>]: true } {
  const mask: Record<string, true> = {};
  for (const [field, fieldClass] of Object.entries(modelSettingsFieldClasses)) {
    if ((wanted as string[]).includes(fieldClass)) mask[field] = true;
  }
  return mask as { [K in FieldsOf<C>]: true };
}

/** Settings a template may carry: universal fields only. */
export const templateSettingsSchema = modelSettingsSchema.pick(fieldMask("universal")).strict();
export type TemplateSettings = z.infer<typeof templateSettingsSchema>;

/** Settings a profile may carry: universal and model-specific fields. */
export const profileSettingsSchema = modelSettingsSchema
  .pick(fieldMask("universal", "model_specific"))
  .strict();
export type ProfileSettings = z.infer<typeof profileSettingsSchema>;

/** Profile and template names: shown in menus and used in URLs (URL-encode them). */
export const presetNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(
    (name) => ![...name].some((char) => char.charCodeAt(0) < 32 || char === "/" || char === "\\"),
    "must not contain control characters or slashes",
  );

export const modelProfileSchema = z.object({
  name: presetNameSchema,
  settings: profileSettingsSchema,
  updated_at: isoDateTimeSchema,
});
export type ModelProfile = z.infer<typeof modelProfileSchema>;

export const settingsTemplateSchema = z.object({
  name: presetNameSchema,
  settings: templateSettingsSchema,
  updated_at: isoDateTimeSchema,
});
export type SettingsTemplate = z.infer<typeof settingsTemplateSchema>;

/** `<base>/model_settings.json`: settings per model id. */
export const modelSettingsFileSchema = z.object({
  version: z.literal(1),
  models: z.record(z.string(), modelSettingsSchema),
});
export type ModelSettingsFile = z.infer<typeof modelSettingsFileSchema>;

/** `<base>/model_profiles.json`: profiles per model id and the global templates. */
export const modelProfilesFileSchema = z.object({
  version: z.literal(1),
  profiles: z.record(z.string(), z.array(modelProfileSchema)),
  templates: z.array(settingsTemplateSchema),
});
export type ModelProfilesFile = z.infer<typeof modelProfilesFileSchema>;

export const defaultHfEndpoint = "https://huggingface.co";
export const defaultModelScopeEndpoint = "https://www.modelscope.cn";

const httpUrlSchema = z.url({ protocol: /^https?$/ }).max(2048);

/**
 * Fields of the global settings without defaults: the PUT body is a strict partial of this, so
 * a patch never resets a field it does not mention.
 */
const globalSettingsFields = {
  /** Address the HTTP server binds. */
  host: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .refine(
      isHostAddress,
      "an IP address (127.0.0.1, 0.0.0.0, ::1) or a host name (localhost, my-mac.local)",
    ),
  /** Port of the HTTP server; 0 picks a free one. */
  port: z.number().int().min(0).max(65_535),
  /** Folders scanned for models; an empty list means `<base>/models`. */
  models_dirs: z.array(z.string().trim().min(1).max(4096)).max(32),
  /** When set, `/v1/*` and `/admin/*` require it. The server reads it at start. */
  api_key: z.string().min(1).max(512).nullable(),
  /** Let non-loopback clients reach `/admin/*`. */
  allow_remote_admin: z.boolean(),
  /** Hugging Face Hub endpoint (a mirror); null means `$HF_ENDPOINT`, else https://huggingface.co. */
  hf_endpoint: httpUrlSchema.nullable(),
  /** ModelScope endpoint; null means `$MODELSCOPE_ENDPOINT`, else https://www.modelscope.cn. */
  modelscope_endpoint: httpUrlSchema.nullable(),
  /** Where performance results are uploaded when the user agrees; null = no community site. */
  community_upload_url: httpUrlSchema.nullable(),
  /** The remembered "upload to community" choice. */
  community_upload_enabled: z.boolean(),
  /** Idle seconds before a model unloads when its settings set none; 0 = never. */
  default_ttl_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600),
  /** Bytes all loaded models may use together; null means 75% of total memory. */
  memory_budget_bytes: z.number().int().positive().nullable(),
  /** The Python 3 code scoring runs; null means found on first use (then remembered here). */
  python_path: z.string().trim().min(1).max(4096).nullable(),
  /**
   * Hugging Face Hub token for gated and private repositories (model downloads, benchmark data);
   * null means `$HF_TOKEN`. Like the API key, it is never sent back.
   */
  hf_token: z.string().trim().min(1).max(512).nullable(),
  /** CPU threads llama.cpp uses per context; null means the platform default. Read at start. */
  threads: z.number().int().min(1).max(256).nullable(),
};

/** The smallest memory budget the settings API takes: 0.5 GiB (no model loads in less). */
export const minimumMemoryBudgetBytes = 512 * 1024 ** 2;

/**
 * `<base>/settings.json`: the one owner of the server settings, edited by the dashboard in the app
 * and in a browser alike. Unknown keys are dropped (a newer version's file still loads); missing
 * keys take their defaults.
 */
export const globalSettingsSchema = z.object({
  host: globalSettingsFields.host.default("127.0.0.1"),
  port: globalSettingsFields.port.default(11435),
  models_dirs: globalSettingsFields.models_dirs.default([]),
  api_key: globalSettingsFields.api_key.default(null),
  allow_remote_admin: globalSettingsFields.allow_remote_admin.default(false),
  hf_endpoint: globalSettingsFields.hf_endpoint.default(null),
  modelscope_endpoint: globalSettingsFields.modelscope_endpoint.default(null),
  community_upload_url: globalSettingsFields.community_upload_url.default(null),
  community_upload_enabled: globalSettingsFields.community_upload_enabled.default(false),
  default_ttl_seconds: globalSettingsFields.default_ttl_seconds.default(900),
  memory_budget_bytes: globalSettingsFields.memory_budget_bytes.default(null),
  python_path: globalSettingsFields.python_path.default(null),
  hf_token: globalSettingsFields.hf_token.default(null),
  threads: globalSettingsFields.threads.default(null),
});
export type GlobalSettings = z.infer<typeof globalSettingsSchema>;

/**
 * Body of `PUT /admin/api/settings`: only the fields to change. `python_path` is not among them:
 * Perch runs that program, so only its own detection (or the user editing the file) sets it.
 */
export const globalSettingsPatchSchema = z
  .object({
    ...globalSettingsFields,
    // A budget no model loads in is a slip (`0.0000001` GiB saved 107 bytes). Only new values are
    // held to it: a smaller one already in settings.json still loads (and refuses each model).
    memory_budget_bytes: globalSettingsFields.memory_budget_bytes.refine(
      (bytes) => bytes === null || bytes >= minimumMemoryBudgetBytes,
      `must be at least ${minimumMemoryBudgetBytes} bytes (0.5 GiB), or null for the default`,
    ),
  })
  .omit({ python_path: true })
  .partial()
  .strict();
export type GlobalSettingsPatch = z.infer<typeof globalSettingsPatchSchema>;

/**
 * What `GET /admin/api/settings` answers: the stored settings (the API key and the Hub token
 * replaced by whether one is set, so they never travel back) and the effective values the server
 * resolved.
 */
export const globalSettingsResponseSchema = z.object({
  settings: globalSettingsSchema
    .omit({ api_key: true, hf_token: true })
    .extend({ api_key_set: z.boolean(), hf_token_set: z.boolean() }),
  effective: z.object({
    /** Where this server listens now (command line and settings resolved); null outside a server. */
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    models_dirs: z.array(z.string()),
    hf_endpoint: z.string(),
    modelscope_endpoint: z.string(),
    /** Where the Hub token in use comes from: settings.json, `$HF_TOKEN`, or none. */
    hf_token_source: z.enum(["settings", "environment"]).nullable(),
    /** CPU threads this server's llama.cpp uses (`--threads`, settings, else the default); null outside a server. */
    threads: z.number().int().nullable(),
    /** What `threads: null` means on this machine. */
    default_threads: z.number().int(),
  }),
  /** Settings that only take effect after a restart (host, port, api key, remote admin, threads). */
  restart_required: z.array(z.string()),
});
export type GlobalSettingsResponse = z.infer<typeof globalSettingsResponseSchema>;

/**
 * Whether `value` can be listened on: an IPv4 address, an IPv6 address, or a host name (letters,
 * digits and hyphens in dot-separated labels; all-numeric names must be valid IPv4).
 */
export function isHostAddress(value: string): boolean {
  if (value.includes(":")) return /^[0-9A-Fa-f:.]+$/.test(value) && /^[^:]*(:[^:]*){2,7}$/.test(value);
  const labels = value.split(".");
  if (labels.every((label) => /^\d+$/.test(label)))
    return labels.length === 4 && labels.every((label) => Number(label) <= 255 && label.length <= 3);
  return labels.every((label) => /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(label));
}
