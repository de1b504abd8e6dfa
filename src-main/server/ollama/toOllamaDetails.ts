import crypto from "node:crypto";
import type { CatalogEntry } from "../../../src-shared/contracts/catalog.js";
import type { OllamaDetails } from "../../../src-shared/contracts/ollama.js";

/** Ollama's `details` from the GGUF facts the catalog read. */
export function toOllamaDetails(entry: CatalogEntry): OllamaDetails {
  const architecture = entry.gguf?.architecture ?? "";
  return {
    parent_model: "",
    format: "gguf",
    family: architecture,
    families: architecture ? [architecture] : null,
    parameter_size: parameterSize(entry.gguf?.parameter_count ?? null),
    quantization_level: entry.gguf?.quantization ?? "",
  };
}

/** `7.6B`, `135.0M`: Ollama's way of writing a parameter count. */
function parameterSize(count: number | null): string {
  if (count === null) return "";
  if (count >= 1e9) return `${(count / 1e9).toFixed(1)}B`;
  if (count >= 1e6) return `${(count / 1e6).toFixed(1)}M`;
  return `${(count / 1e3).toFixed(1)}K`;
}

/**
 * A sha256 hex digest for the model: the file's own sha256 when the Hub told it (LFS oid), else
 * a stable hash of its id, size and modification time (Perch has no Ollama manifests).
 */
export function ollamaDigest(entry: CatalogEntry): string {
  if (entry.file_oid && /^[0-9a-f]{64}$/.test(entry.file_oid)) return entry.file_oid;
  return crypto
    .createHash("sha256")
    .update(`${entry.id}\0${entry.size_bytes}\0${entry.mtime_ms}`)
    .digest("hex");
}
