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
 * `hf:` (Hugging Face, the default) or `ms:` (ModelScope), or by the hub's address with or without
 * `https://` (`hf.co/owner/name:QUANT`, Ollama's name for a Hugging Face model; `huggingface.co/`,
 * `modelscope.cn/models/`). Ollama's `:latest` means no particular quantization.
 */
export function parsePullReference(reference: string): PullReference {
  let rest = reference.trim();
  let source: RemoteSource = "hf";
  const prefix = /^(hf|ms|modelscope):/i.exec(rest);
  if (prefix) {
    source = prefix[1].toLowerCase() === "hf" ? "hf" : "modelscope";
    rest = rest.slice(prefix[0].length);
  }
  const host = /^(?:https?:\/\/)?(?:www\.)?(huggingface\.co|hf\.co|modelscope\.cn\/models)\//i.exec(rest);
  if (host) {
    const hostSource: RemoteSource = host[1]!.toLowerCase().startsWith("modelscope") ? "modelscope" : "hf";
    if (prefix && hostSource !== source) {
      throw new PerchError("invalid_request", `'${reference}' names two hubs; give one.`);
    }
    source = hostSource;
    rest = rest.slice(host[0].length);
  }
  let quant: string | undefined;
  const colon = rest.lastIndexOf(":");
  if (colon !== -1) {
    quant = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (quant.toLowerCase() === "latest") quant = undefined;
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
