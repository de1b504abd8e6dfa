import type { RemoteSource } from "../../../src-shared/contracts/catalog.js";
import {
  quantLabelSchema,
  repoFilePathSchema,
  repoIdSchema,
  revisionSchema,
} from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../base/PerchError.js";

export interface PullReference {
  source: RemoteSource;
  repo: string;
  /** A GGUF path in the repo (`owner/name/sub/model.gguf`). */
  file?: string;
  /** A quantization label (`owner/name:Q4_K_M`). */
  quant?: string;
  /** A branch, tag or commit, from a pasted file address (`…/resolve/<revision>/file.gguf`). */
  revision?: string;
}

/**
 * Reads `owner/name`, `owner/name:QUANT`, `owner/name/path/file.gguf`, each optionally prefixed by
 * `hf:` (Hugging Face, the default) or `ms:` (ModelScope), or by the hub's address with or without
 * `https://` (`hf.co/owner/name:QUANT`, Ollama's name for a Hugging Face model; `huggingface.co/`,
 * `modelscope.cn/models/`). Ollama's `:latest` means no particular quantization. A file's address
 * as the hub's page or download link gives it (`…/resolve/<rev>/file.gguf`, `…/blob/<rev>/…`,
 * `…/tree/<rev>`, with any `?download=true`) names that file at that revision.
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
    rest = rest.slice(host[0].length).replace(/[?#].*$/, "");
  }
  const address = host ? fileAddress(rest) : undefined;
  if (address) rest = address.rest;
  let quant: string | undefined;
  const colon = rest.lastIndexOf(":");
  if (colon !== -1) {
    quant = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (quant.toLowerCase() === "latest") quant = undefined;
  }
  const [owner, name, ...filePath] = rest.split("/");
  const repo = `${owner ?? ""}/${name ?? ""}`;
  if (
    !repoIdSchema.safeParse(repo).success ||
    (quant !== undefined && !quantLabelSchema.safeParse(quant).success)
  ) {
    throw new PerchError(
      "invalid_request",
      `'${reference}' is not a model reference. Use owner/repo, owner/repo:QUANT (e.g. :Q4_K_M), ` +
        "owner/repo/file.gguf, or ms:owner/repo for ModelScope.",
    );
  }
  const file = filePath.length > 0 ? filePath.join("/") : undefined;
  if (file !== undefined && !repoFilePathSchema.safeParse(file).success) {
    throw new PerchError("invalid_request", `'${reference}' names no file of the repo ('${file}').`);
  }
  if (file && quant) {
    throw new PerchError("invalid_request", `Give a quantization or a file, not both: '${reference}'.`);
  }
  const revision = address?.revision;
  if (revision !== undefined && !revisionSchema.safeParse(revision).success) {
    throw new PerchError("invalid_request", `'${reference}' names no valid revision ('${revision}').`);
  }
  return {
    source,
    repo,
    ...(file ? { file } : {}),
    ...(quant ? { quant } : {}),
    ...(revision ? { revision } : {}),
  };
}

/**
 * `owner/name/{resolve|blob|tree}/<rev>[/path]` (Hugging Face's page and download addresses, also
 * ModelScope's `resolve`): the reference without the middle part, and the revision. A revision
 * with slashes comes encoded (`refs%2Fpr%2F1`).
 */
function fileAddress(rest: string): { rest: string; revision: string } | undefined {
  const match = /^([^/]+\/[^/]+)\/(?:resolve|blob|tree)\/([^/]+)(?:\/(.*))?$/.exec(rest);
  if (!match) return undefined;
  let revision: string;
  let file: string;
  try {
    revision = decodeURIComponent(match[2]);
    file = (match[3] ?? "").split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new PerchError("invalid_request", `'${rest}' is not a well-formed address (bad %-encoding).`);
  }
  return { rest: file ? `${match[1]}/${file}` : match[1], revision };
}
