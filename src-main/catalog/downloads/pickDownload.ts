import type {
  DownloadRequest,
  RemoteSource,
  RepoFilesResponse,
} from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../base/PerchError.js";

/** What a user named: a repo, and a file or quant in it (`perch pull`, Ollama's `/api/pull`). */
export interface DownloadReference {
  source: RemoteSource;
  repo: string;
  file?: string;
  quant?: string;
  /** Defaults to the repo's head. */
  revision?: string;
}

/** The quantization picked when a repo holds several and none was named (a common default). */
export const defaultQuant = "Q4_K_M";

/**
 * The download request for a reference: as given when it names a file or quant; otherwise the
 * repo's only GGUF, else its `Q4_K_M`, else an error listing what there is.
 */
export function pickDownload(reference: DownloadReference, listing: RepoFilesResponse): DownloadRequest {
  const base = {
    source: reference.source,
    repo: reference.repo,
    ...(reference.revision ? { revision: reference.revision } : {}),
  };
  if (reference.file) return { ...base, file: reference.file };
  if (reference.quant) return { ...base, quant: reference.quant };
  if (listing.ggufs.length === 0) {
    throw new PerchError("not_found", `${reference.repo} holds no GGUF model.`);
  }
  if (listing.ggufs.length === 1) return { ...base, file: listing.ggufs[0].file };
  const preferred = listing.ggufs.filter((gguf) => gguf.quant?.toUpperCase() === defaultQuant);
  if (preferred.length === 1) return { ...base, file: preferred[0].file };
  const quants = [...new Set(listing.ggufs.map((gguf) => gguf.quant).filter(Boolean))];
  throw new PerchError(
    "invalid_request",
    `${reference.repo} holds ${listing.ggufs.length} GGUF models; pick one with ` +
      `${reference.repo}:QUANT (${quants.join(", ") || "no quant labels"}) or ${reference.repo}/<file.gguf>.`,
  );
}
