import type { CatalogEntry, RemoteSource, UpdateCheckResult } from "../../src-shared/contracts/catalog.js";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import type { ModelDownloader } from "./downloads/ModelDownloader.js";
import { mapWithConcurrency } from "./mapWithConcurrency.js";
import type { ModelCatalog } from "./ModelCatalog.js";
import { errorMessage } from "../base/describeError.js";
import { changedOnDiskReason } from "./reconcileCatalog.js";

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
      const remote = entry.remote_path
        ? listing.files.find((file) => file.path === entry.remote_path)
        : undefined;
      if (entry.remote_path && !remote) {
        throw new PerchError("not_found", `${entry.remote_path} is no longer in ${entry.repo}.`);
      }
      const remoteRevision = remote?.revision ?? listing.revision;
      const sameContent =
        entry.file_oid && remote?.sha256
          ? entry.file_oid === remote.sha256
          : entry.revision === remoteRevision;
      return this.save(
        {
          ...base,
          update_status: sameContent ? "up_to_date" : "update_available",
          remote_revision: remoteRevision,
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
