import type { RemoteSource } from "../../../src-shared/contracts/catalog.js";
import { repoIdSchema } from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../base/PerchError.js";

export interface PullReference {
  source: RemoteSource;
  repo: string;
  /** A GGUF path in the repo (`owner/name/sub/model.gguf`). */
  file?: string;
  /** A quantization label (`owner/name:Q4_K_M`). */
  quant?: string;
}

/**
 * Reads `owner/name`, `owner/name:QUANT`, `owner/name/path/file.gguf`, each optionally prefixed by
 * `hf:` (Hugging Face, the default) or `ms:` (ModelScope).
 */
export function parsePullReference(reference: string): PullReference {
  let rest = reference.trim();
  let source: RemoteSource = "hf";
  const prefix = /^(hf|ms|modelscope):/i.exec(rest);
  if (prefix) {
    source = prefix[1].toLowerCase() === "hf" ? "hf" : "modelscope";
    rest = rest.slice(prefix[0].length);
  }
  rest = rest.replace(/^https?:\/\/(huggingface\.co|hf\.co|modelscope\.cn\/models)\//i, "");
  let quant: string | undefined;
  const colon = rest.lastIndexOf(":");
  if (colon !== -1) {
    quant = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const [owner, name, ...filePath] = rest.split("/");
  const repo = `${owner ?? ""}/${name ?? ""}`;
  if (!repoIdSchema.safeParse(repo).success || (quant !== undefined && !/^[A-Za-z0-9_]+$/.test(quant))) {
    throw new PerchError(
      "invalid_request",
      `'${reference}' is not a model reference. Use owner/repo, owner/repo:QUANT (e.g. :Q4_K_M), ` +
        "owner/repo/file.gguf, or ms:owner/repo for ModelScope.",
    );
  }
  const file = filePath.length > 0 ? filePath.join("/") : undefined;
  if (file && quant) {
    throw new PerchError("invalid_request", `Give a quantization or a file, not both: '${reference}'.`);
  }
  return { source, repo, ...(file ? { file } : {}), ...(quant ? { quant } : {}) };
}
