import type { UpdateStatus } from "../../src-shared/contracts/catalog.js";
import { PerchError } from "../base/PerchError.js";
import type { RemoteListing } from "./downloads/ModelDownloader.js";

/** What a download recorded of a model's files: the commit, and each file's content id by path. */
export interface RecordedFiles {
  repo: string;
  revision: string | null;
  /** Content id per path inside the repo (null where unknown); empty when no path is known. */
  fileOids: Readonly<Record<string, string | null>>;
}

/**
 * Whether a repo listing (its head) still holds the recorded files: every file is compared, by
 * content id where both sides know it (a README commit is no update), else by commit. A recorded
 * file the listing no longer has is `not_found`.
 */
export function compareWithListing(
  recorded: RecordedFiles,
  listing: RemoteListing,
): { update_status: Extract<UpdateStatus, "up_to_date" | "update_available">; remote_revision: string } {
  const paths = Object.keys(recorded.fileOids);
  if (paths.length === 0) {
    const same = recorded.revision === listing.revision;
    return { update_status: same ? "up_to_date" : "update_available", remote_revision: listing.revision };
  }
  let remoteRevision: string | undefined;
  let same = true;
  for (const remotePath of paths) {
    const remote = listing.files.find((file) => file.path === remotePath);
    if (!remote) throw new PerchError("not_found", `${remotePath} is no longer in ${recorded.repo}.`);
    const revision = remote.revision ?? listing.revision;
    remoteRevision ??= revision;
    const oid = recorded.fileOids[remotePath];
    same &&= oid && remote.sha256 ? oid === remote.sha256 : recorded.revision === revision;
  }
  return { update_status: same ? "up_to_date" : "update_available", remote_revision: remoteRevision! };
}
