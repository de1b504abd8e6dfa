import { modelIdSchema } from "../../src-shared/contracts/catalog.js";
import { PerchError } from "../base/PerchError.js";

const shardPattern = /^(.*)-(\d{5})-of-(\d{5})\.gguf$/i;
const hfCacheRepoPattern = /^models--([^/]+)--([^/]+)$/;

export interface ShardInfo {
  /** 1-based. */
  index: number;
  total: number;
}

/** Whether a file name is a loadable model (a `.gguf` that is not a vision projector). */
export function isModelFileName(fileName: string): boolean {
  return fileName.toLowerCase().endsWith(".gguf") && !fileName.toLowerCase().includes("mmproj");
}

export function parseShard(fileName: string): ShardInfo | null {
  const match = shardPattern.exec(fileName);
  return match ? { index: Number(match[2]), total: Number(match[3]) } : null;
}

/**
 * The model id of a file at `relativePath` (posix, relative to its models dir): the path without
 * `.gguf` and without a split suffix; in the Hugging Face cache layout
 * (`models--org--name/snapshots/<sha>/file.gguf`) it is `org/name/file`.
 */
export function modelIdFromPath(relativePath: string): { id: string; shard: ShardInfo | null } {
  const parts = relativePath.split("/");
  const repo = hfCacheRepoPattern.exec(parts[0] ?? "");
  const logical =
    repo && parts[1] === "snapshots" && parts.length > 3 ? [repo[1], repo[2], ...parts.slice(3)] : parts;
  const fileName = logical[logical.length - 1] ?? "";
  const shard = parseShard(fileName);
  const stem = shard ? shardPattern.exec(fileName)![1] : fileName.replace(/\.gguf$/i, "");
  const id = [...logical.slice(0, -1), stem].join("/");
  return { id, shard };
}

/** Throws `invalid_id` unless `id` is a safe model id (relative, no `..`, no NUL, bounded). */
export function assertModelId(id: string): void {
  const checked = modelIdSchema.safeParse(id);
  if (!checked.success) {
    throw new PerchError(
      "invalid_id",
      `Invalid model id: ${checked.error.issues[0]?.message ?? "malformed"}.`,
      {
        param: "model_id",
      },
    );
  }
}
