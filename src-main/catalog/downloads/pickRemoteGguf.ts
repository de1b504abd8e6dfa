import { PerchError } from "../../base/PerchError.js";
import { groupRemoteGgufs, type RemoteGguf } from "./groupRemoteGgufs.js";
import type { RemoteListing } from "./ModelDownloader.js";

/**
 * The model a download request means: the group containing `file` (any shard selects all of
 * them), or the one GGUF whose quant label is `quant` (case-insensitive).
 */
export function pickRemoteGguf(
  listing: RemoteListing,
  request: { file?: string; quant?: string },
): RemoteGguf {
  const ggufs = groupRemoteGgufs(listing.files);
  if (request.file !== undefined) {
    const picked = ggufs.find((gguf) => gguf.files.some((file) => file.path === request.file));
    if (!picked) {
      throw new PerchError("not_found", `'${request.file}' is not a GGUF model in ${listing.repo}.`, {
        param: "file",
      });
    }
    return picked;
  }
  const wanted = (request.quant ?? "").toUpperCase();
  const matches = ggufs.filter((gguf) => gguf.quant?.toUpperCase() === wanted);
  if (matches.length === 1) return matches[0];
  const available = [...new Set(ggufs.map((gguf) => gguf.quant).filter(Boolean))].join(", ") || "none";
  if (matches.length === 0) {
    throw new PerchError(
      "not_found",
      `${listing.repo} has no ${request.quant} GGUF (available: ${available}).`,
      {
        param: "quant",
      },
    );
  }
  throw new PerchError(
    "invalid_request",
    `${listing.repo} has several ${request.quant} GGUFs; pick one with 'file': ${matches.map((gguf) => gguf.file).join(", ")}.`,
    { param: "quant" },
  );
}
