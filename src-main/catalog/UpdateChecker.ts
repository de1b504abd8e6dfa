import type { CatalogEntry, RemoteSource, UpdateCheckResult } from "../../src-shared/contracts/catalog.js";
import { createLogger } from "../base/createLogger.js";
import type { ModelDownloader } from "./downloads/ModelDownloader.js";
import { mapWithConcurrency } from "./mapWithConcurrency.js";
import type { ModelCatalog } from "./ModelCatalog.js";
import { errorMessage } from "../base/describeError.js";
import { changedOnDiskReason } from "./reconcileCatalog.js";
import { compareWithListing, type RecordedFiles } from "./compareWithListing.js";

const log = createLogger("catalog");

export interface UpdateCheckerOptions {
  catalog: ModelCatalog;
  downloaders: Record<RemoteSource, ModelDownloader>;
  /** Checks in flight at once in `checkAll`. Defaults to `4`. */
  concurrency?: number;
}

/**
 * Compares what a remote-backed model was downloaded from with the repo's head: when both
 * sides know the file's content hash it decides (a README commit is no update), otherwise the
 * commit does. Local models are `not_applicable`; ones of unknown origin stay `unknown`, and so
 * do missing ones and ones whose file changed on disk since the download (with the reason in
 * `error`). A failing hub makes that one model `error`, never the whole batch.
 */
export class UpdateChecker {
  constructor(private readonly options: UpdateCheckerOptions) {}

  async check(modelId: string): Promise<UpdateCheckResult> {
    return this.checkEntry(await this.options.catalog.get(modelId));
  }

  /** Checks every model; remote ones hit the hub with bounded concurrency. */
  async checkAll(): Promise<UpdateCheckResult[]> {
    const entries = await this.options.catalog.list();
    return mapWithConcurrency(entries, this.options.concurrency ?? 4, (entry) => this.checkEntry(entry));
  }

  private async checkEntry(entry: CatalogEntry): Promise<UpdateCheckResult> {
    const base = { model_id: entry.id, revision: entry.revision };
    if (entry.source === "local") {
      return this.save(
        {
          ...base,
          update_status: "not_applicable",
          remote_revision: null,
          last_checked_at: null,
          error: null,
        },
        entry,
      );
    }
    if ((entry.source !== "hf" && entry.source !== "modelscope") || !entry.repo) {
      return this.save(
        { ...base, update_status: "unknown", remote_revision: null, last_checked_at: null, error: null },
        entry,
      );
    }
    // Nothing on disk to compare, or bytes whose commit is no longer known (`forgetProvenance`):
    // never "up to date".
    if (entry.missing || (entry.revision === null && entry.file_oid === null)) {
      return this.save(
        {
          ...base,
          update_status: "unknown",
          remote_revision: null,
          last_checked_at: null,
          error: entry.missing
            ? `The model's file is missing (${entry.path}): there is nothing to compare with ${entry.repo}. Pull it again or delete the model.`
            : changedOnDiskReason,
        },
        entry,
      );
    }
    const checkedAt = new Date().toISOString();
    try {
      const listing = await this.options.downloaders[entry.source].listFiles(entry.repo);
      const compared = compareWithListing(recordedFiles(entry, entry.repo), listing);
      return this.save(
        {
          ...base,
          ...compared,
          last_checked_at: checkedAt,
          error: null,
        },
        entry,
      );
    } catch (error) {
      const message = errorMessage(error).slice(0, 500);
      log.warn({ modelId: entry.id, err: message }, "update check failed");
      return this.save(
        {
          ...base,
          update_status: "error",
          remote_revision: entry.remote_revision,
          last_checked_at: checkedAt,
          error: message,
        },
        entry,
      );
    }
  }

  private async save(result: UpdateCheckResult, entry: CatalogEntry): Promise<UpdateCheckResult> {
    const changed =
      entry.update_status !== result.update_status ||
      entry.remote_revision !== result.remote_revision ||
      entry.last_checked_at !== result.last_checked_at ||
      entry.update_error !== result.error;
    if (changed) await this.options.catalog.recordUpdateCheck(result);
    return result;
  }
}

/**
 * The files a download recorded: every shard's content id (`file_oids`), else — a catalog from
 * before it was kept — the first file's, or for a split model none (its other shards' ids were
 * never kept, so the commit decides: a change to any shard is an update).
 */
function recordedFiles(entry: CatalogEntry, repo: string): RecordedFiles {
  if (entry.file_oids) return { repo, revision: entry.revision, fileOids: entry.file_oids };
  if (!entry.remote_path) return { repo, revision: entry.revision, fileOids: {} };
  const oid = entry.files.length > 1 ? null : entry.file_oid;
  return { repo, revision: entry.revision, fileOids: { [entry.remote_path]: oid } };
}
