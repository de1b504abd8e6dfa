import { z } from "zod";
import { isoDateTimeSchema, safeIdSchema } from "./primitives.js";

/**
 * A model id: the model's path relative to its models dir, `/`-separated, without `.gguf` and
 * without a split suffix (`org/repo/model-Q4_K_M`). In URL paths it is one segment, encoded
 * with `encodeURIComponent` (see `modelIdPath`).
 */
export const modelIdSchema = z
  .string()
  .min(1)
  .max(512)
  .refine((id) => !id.includes("\u0000"), "must not contain NUL")
  .refine((id) => !id.startsWith("/") && !/^[A-Za-z]:/.test(id) && !id.includes("\\"), "must be relative")
  .refine(
    (id) => id.split("/").every((part) => part.length > 0 && part !== "." && part !== ".."),
    "must not contain empty, '.' or '..' segments",
  );
export type ModelId = z.infer<typeof modelIdSchema>;

/** The URL path segment of a model id: `/admin/api/models/${modelIdPath(id)}/settings`. */
export function modelIdPath(modelId: string): string {
  return encodeURIComponent(modelId);
}

/** A Hub repository id: `owner/name`. */
export const repoIdSchema = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/, "must be 'owner/name'")
  .refine((repo) => !repo.includes(".."), "must not contain '..'");

export const modelSourceSchema = z.enum(["hf", "modelscope", "local", "unknown"]);
export type ModelSource = z.infer<typeof modelSourceSchema>;
export const remoteSourceSchema = z.enum(["hf", "modelscope"]);
export type RemoteSource = z.infer<typeof remoteSourceSchema>;

export const updateStatusSchema = z.enum([
  "up_to_date",
  "update_available",
  "unknown",
  "error",
  "not_applicable",
]);
export type UpdateStatus = z.infer<typeof updateStatusSchema>;

const isoDate = isoDateTimeSchema;

/** Facts read from the GGUF header; null where the header does not say. */
export const ggufFactsSchema = z.object({
  architecture: z.string().nullable(),
  parameter_count: z.number().int().nullable(),
  /** File type, e.g. `Q4_K_M`, `Q8_0`, `F16`. */
  quantization: z.string().nullable(),
  context_length: z.number().int().nullable(),
  /** Experts per MoE layer; null or 0 for dense models. */
  expert_count: z.number().int().nullable(),
  /** Model name from `general.name`. */
  name: z.string().nullable(),
});
export type GgufFacts = z.infer<typeof ggufFactsSchema>;

/** One model in `<base>/model_catalog.json`. */
export const catalogEntrySchema = z.object({
  id: modelIdSchema,
  /** Absolute path of the model file (the first shard of a split model). */
  path: z.string(),
  /** Every file of the model (all shards). */
  files: z.array(z.string()),
  /** The models dir it was found in. */
  models_dir: z.string(),
  /** Set when the files are gone from disk; the entry (and its history) stays. */
  missing: z.boolean(),
  source: modelSourceSchema,
  /** Hub repo (`owner/name`) for remote-backed models. */
  repo: z.string().nullable(),
  /** Path of the (first) file inside the repo. */
  remote_path: z.string().nullable(),
  /** Commit the local file came from (null once the file changed on disk since). */
  revision: z.string().nullable(),
  /** Content id of the local file at that commit (the sha256 for LFS files; null as `revision`). */
  file_oid: z.string().nullable(),
  /**
   * The content id of every file of the model at `revision`, keyed by its path inside the repo
   * (a split model's every shard; an update check compares them all). Absent in catalogs written
   * before it was recorded, and once the file changed on disk.
   */
  file_oids: z.record(z.string(), z.string().nullable()).optional(),
  discovered_at: isoDate,
  downloaded_at: isoDate.nullable(),
  updated_at: isoDate.nullable(),
  last_checked_at: isoDate.nullable(),
  remote_revision: z.string().nullable(),
  update_status: updateStatusSchema,
  /**
   * Why the last update check failed (`update_status: "error"`), or why it cannot tell
   * (`"unknown"`: the file is missing, or changed on disk since it was downloaded).
   */
  update_error: z.string().nullable(),
  size_bytes: z.number().int().min(0),
  /** Modification time of the files when the GGUF header was read (header cache key). */
  mtime_ms: z.number(),
  gguf: ggufFactsSchema.nullable(),
  /** Why the GGUF header could not be read. */
  gguf_error: z.string().nullable(),
});
export type CatalogEntry = z.infer<typeof catalogEntrySchema>;

export const catalogFileSchema = z.object({
  version: z.literal(1),
  models: z.record(z.string(), catalogEntrySchema),
});
export type CatalogFile = z.infer<typeof catalogFileSchema>;

/** Answer of an update check for one model. */
export const updateCheckResultSchema = z.object({
  model_id: modelIdSchema,
  update_status: updateStatusSchema,
  revision: z.string().nullable(),
  remote_revision: z.string().nullable(),
  last_checked_at: isoDate.nullable(),
  error: z.string().nullable(),
});
export type UpdateCheckResult = z.infer<typeof updateCheckResultSchema>;

export const updateCheckAllResponseSchema = z.object({ results: z.array(updateCheckResultSchema) });

/** A warning surfaced by `GET /admin/api/health` (corrupt files moved aside, missing models...). */
export const healthWarningSchema = z.object({
  code: z.enum([
    "corrupt_file",
    "missing_model",
    "duplicate_model",
    "storage_error",
    "scan_error",
    "scoring_error",
  ]),
  message: z.string(),
  path: z.string().optional(),
  model_id: z.string().optional(),
  at: isoDate,
});
export type HealthWarning = z.infer<typeof healthWarningSchema>;

export const healthResponseSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  warnings: z.array(healthWarningSchema),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** A file path inside a Hub repo: relative, `/`-separated, no traversal. */
export const repoFilePathSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.includes("\u0000") && !p.includes("\\") && !p.startsWith("/"), "must be a relative path")
  .refine(
    (p) => p.split("/").every((part) => part.length > 0 && part !== "." && part !== ".."),
    "no '.' or '..'",
  );

/** A git revision: branch, tag or commit (no slashes-first, no traversal). */
export const revisionSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.\-/]*$/, "invalid revision")
  .refine((r) => !r.includes(".."), "invalid revision");

/**
 * A quantization label as repos name their files: `Q4_K_M`, `IQ4_XS`, `BF16`, `Q4_0_4_4`, Unsloth's
 * `UD-Q4_K_XL` (letters, digits, `_`, `-` and `.`, starting with a letter or digit, no `..`). It is
 * matched against a repo's listing, never joined into a path.
 */
export const quantLabelSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "must be a quantization label such as Q4_K_M or UD-Q4_K_XL")
  .refine((quant) => !quant.includes(".."), "must not contain '..'");

/**
 * Body of `POST /admin/api/downloads`: a repo and either one GGUF `file` (for split models, any
 * shard: all shards come) or a `quant` (e.g. `Q4_K_M`) picked from the repo's listing.
 */
export const downloadRequestSchema = z
  .object({
    source: remoteSourceSchema,
    repo: repoIdSchema,
    /** Defaults to the repo's head (`main` on Hugging Face, `master` on ModelScope). */
    revision: revisionSchema.optional(),
    file: repoFilePathSchema.optional(),
    quant: quantLabelSchema.optional(),
  })
  .strict()
  .refine((body) => (body.file === undefined) !== (body.quant === undefined), {
    message: "give exactly one of 'file' or 'quant'",
    path: ["file"],
  });
export type DownloadRequest = z.infer<typeof downloadRequestSchema>;

/** Query of `GET /admin/api/downloads/repo-files`. */
export const repoFilesQuerySchema = z
  .object({ source: remoteSourceSchema, repo: repoIdSchema, revision: revisionSchema.optional() })
  .strict();

export const remoteFileSchema = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  /** sha256 of the content, where the hub knows it (LFS files). */
  sha256: z.string().nullable(),
});
export type RemoteFile = z.infer<typeof remoteFileSchema>;

/** One downloadable GGUF model in a repo listing (shards grouped). */
export const remoteGgufSchema = z.object({
  /** Path of the first file; pass it as `file`. */
  file: z.string(),
  files: z.array(z.string()),
  size: z.number().int().min(0),
  quant: z.string().nullable(),
});

export const repoFilesResponseSchema = z.object({
  source: remoteSourceSchema,
  repo: z.string(),
  revision: z.string(),
  files: z.array(remoteFileSchema),
  ggufs: z.array(remoteGgufSchema),
});
export type RepoFilesResponse = z.infer<typeof repoFilesResponseSchema>;

export const downloadStatusSchema = z.enum(["running", "completed", "failed", "cancelled"]);
export type DownloadStatus = z.infer<typeof downloadStatusSchema>;

const downloadFileSchema = z.object({
  path: z.string(),
  size: z.number().int(),
  sha256: z.string().nullable(),
});

const eventBase = { run_id: z.string(), at: isoDate };
const errorShape = z.object({ code: z.string(), message: z.string() });

/** Progress of a download run, streamed over SSE / IPC; a late subscriber gets a replay. */
export const downloadEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("started"),
    ...eventBase,
    source: remoteSourceSchema,
    repo: z.string(),
    revision: z.string(),
    model_id: modelIdSchema,
    files: z.array(downloadFileSchema),
    total_bytes: z.number().int(),
    /** Bytes already on disk from an earlier attempt. */
    resumed_from_bytes: z.number().int(),
  }),
  z.object({
    type: z.literal("progress"),
    ...eventBase,
    file: z.string(),
    downloaded_bytes: z.number().int(),
    total_bytes: z.number().int(),
    bytes_per_second: z.number(),
  }),
  z.object({ type: z.literal("verifying"), ...eventBase, file: z.string() }),
  z.object({ type: z.literal("file_completed"), ...eventBase, file: z.string(), sha256: z.string() }),
  z.object({ type: z.literal("completed"), ...eventBase, model_id: modelIdSchema }),
  z.object({
    type: z.literal("failed"),
    ...eventBase,
    error: errorShape,
    downloaded_bytes: z.number().int(),
  }),
  z.object({ type: z.literal("cancelled"), ...eventBase, downloaded_bytes: z.number().int() }),
]);
export type DownloadEvent = z.infer<typeof downloadEventSchema>;

export const downloadRunSchema = z.object({
  run_id: z.string(),
  source: remoteSourceSchema,
  repo: z.string(),
  revision: z.string(),
  model_id: modelIdSchema,
  files: z.array(downloadFileSchema),
  status: downloadStatusSchema,
  downloaded_bytes: z.number().int(),
  total_bytes: z.number().int(),
  error: errorShape.nullable(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type DownloadRun = z.infer<typeof downloadRunSchema>;

export const downloadRunIdSchema = safeIdSchema();

/** `GET /admin/api/downloads`: newest first. */
export const downloadRunListResponseSchema = z.object({ runs: z.array(downloadRunSchema) });
