import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  catalogFileSchema,
  type CatalogEntry,
  type GgufFacts,
  type UpdateCheckResult,
  type UpdateStatus,
} from "../../src-shared/contracts/catalog.js";
import type { RescanResponse } from "../../src-shared/contracts/models.js";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import type { ResolvedModel } from "../engine/LoadedModel.js";
import type { ModelSettingsStore } from "../settings/ModelSettingsStore.js";
import type { HealthRegistry, HealthWarningInput } from "../storage/HealthRegistry.js";
import { JsonFile } from "../storage/JsonFile.js";
import { KeyedQueue } from "../storage/KeyedQueue.js";
import { ownEntry } from "../storage/ownEntry.js";
import { deleteModelFiles } from "./deleteModelFiles.js";
import type { DiscoveredModel } from "./DiscoveredModel.js";
import { discoverModels } from "./discoverModels.js";
import { assertModelId } from "./modelIdFromPath.js";
import { readGgufFacts } from "./readGgufFacts.js";
import { inModelsDirs, reconcileCatalog } from "./reconcileCatalog.js";
import { ollamaModelNames } from "./ollamaModelNames.js";
import { errorMessage } from "../base/describeError.js";

const log = createLogger("catalog");

export interface ModelCatalogOptions {
  /** Folder holding `model_catalog.json`. */
  basePath: string;
  /** The effective models dirs, asked at every scan (settings may change them). */
  modelsDirs: () => Promise<string[]> | string[];
  settings: ModelSettingsStore;
  /** Where corrupt files, missing and duplicate models are reported. Defaults to `undefined`. */
  health?: HealthRegistry;
  /** Reads a GGUF header (tests pass a fake). Defaults to `readGgufFacts`. */
  readFacts?: (filePath: string, shardCount: number) => Promise<GgufFacts>;
  /**
   * The folders are a one-off view (a command line's `--models-dir`), not the base's own: models
   * of other folders are neither marked missing in the shared catalog file nor listed. Defaults
   * to `false` (a folder taken out of the settings makes its models missing).
   */
  foldersAreAView?: boolean;
}

/** What a finished download tells the catalog. */
export interface DownloadRecord {
  source: "hf" | "modelscope";
  repo: string;
  remotePath: string;
  revision: string;
  fileOid: string | null;
  /** Every file's content id by its path in the repo (all shards of a split model). */
  fileOids: Record<string, string | null>;
  /**
   * How the download compares with the repo's head. Defaults to up to date at `revision` (a pull
   * of the head); a pull of an older revision passes what a check of the head found.
   */
  head?: { update_status: UpdateStatus; remote_revision: string | null };
}

/**
 * `<base>/model_catalog.json`: every model ever discovered, with where it came from, its GGUF
 * facts and its update-check state. The engine resolves model ids through `resolveModel`.
 */
export class ModelCatalog {
  private readonly file: JsonFile<typeof catalogFileSchema>;
  private readonly options: ModelCatalogOptions;
  private readonly scanQueue = new KeyedQueue();
  private scanned: Promise<unknown> | undefined;
  private scanWarnings: HealthWarningInput[] = [];

  constructor(options: ModelCatalogOptions) {
    this.options = options;
    this.file = new JsonFile({
      path: path.join(path.resolve(options.basePath), "model_catalog.json"),
      schema: catalogFileSchema,
      empty: () => ({ version: 1 as const, models: {} }),
      health: options.health,
    });
    options.health?.addProvider(() => this.currentWarnings());
  }

  /** Entries sorted by id; the first call scans the disk. */
  /** The catalog's models (with `foldersAreAView`, only those of the folders in view). */
  async list(): Promise<CatalogEntry[]> {
    await this.ensureScanned();
    const inView = await this.inView();
    return Object.values((await this.file.read()).models)
      .filter(inView)
      .sort((a, b) => a.id.localeCompare(b.id));
  }

  /** The catalog entry of `modelId` (a missing model's too); an unknown id rescans once first. */
  async get(modelId: string): Promise<CatalogEntry> {
    assertModelId(modelId);
    const entry = await this.lookUp(modelId, (found) => found !== undefined);
    if (!entry) throw new PerchError("model_not_found", `Model '${modelId}' not found.`, { param: "model" });
    return entry;
  }

  /** The least time between two rescans that unknown ids trigger (`lookUp`). */
  static missRescanIntervalMs = 2000;
  private lastMissRescanAt = 0;

  /**
   * The engine's lookup: file and settings of a present model. An unknown id triggers one
   * rescan first, so a file copied into the models dir is usable without a manual rescan.
   */
  async resolveModel(modelId: string): Promise<ResolvedModel> {
    if (!isWellFormed(modelId)) throw new PerchError("model_not_found", `Model '${modelId}' not found.`);
    const entry = await this.lookUp(modelId, (found) => found !== undefined && !found.missing);
    if (!entry || entry.missing) {
      throw new PerchError("model_not_found", `Model '${modelId}' not found.`, { param: "model" });
    }
    // A file whose header could not be read is not handed to llama.cpp: node-llama-cpp's own GGUF
    // reader trusts the counts in it (a 15-byte file claiming 2.8e16 tensors grew the server by
    // gigabytes, never answering). Read again first: the file may have been replaced since.
    const unreadable = entry.gguf_error !== null ? (await this.readFacts(entry)).gguf_error : null;
    if (unreadable !== null) {
      throw new PerchError(
        "model_load_failed",
        `Could not load model '${entry.id}': its file is not a readable GGUF (${unreadable}).`,
        { param: "model" },
      );
    }
    return { id: entry.id, path: entry.path, settings: await this.options.settings.get(entry.id) };
  }

  /**
   * The model id a client's name means, in one order every route shares: the name itself when a
   * model has that id (or `<id>:latest`), else the model its Ollama name means (`hf.co/owner/repo`
   * with or without a tag, as `/api/tags` lists it; `ollamaModelNames`), else the model whose
   * alias it is (trimmed, any case; aliases are unique and never another model's name, see the
   * settings route), else the name unchanged (so an unknown name still ends in `model_not_found`,
   * after a rescan). A name a model takes later (a pull) wins over an older alias, everywhere.
   */
  async canonicalId(name: string): Promise<string> {
    await this.ensureScanned();
    const models = (await this.file.read()).models;
    const untagged = name.endsWith(":latest") ? name.slice(0, -":latest".length) : name;
    for (const candidate of new Set([name, untagged])) if (ownEntry(models, candidate)) return candidate;
    const named = ollamaModelNames(Object.values(models)).resolve(name);
    if (named) return named.id;
    const aliases = Object.entries(await this.options.settings.all());
    for (const candidate of new Set([name, untagged])) {
      const wanted = candidate.trim().toLowerCase();
      const aliased =
        wanted && aliases.find(([, settings]) => settings.alias?.trim().toLowerCase() === wanted);
      if (aliased) return aliased[0];
    }
    return name;
  }

  /**
   * The entry of `modelId`, rescanning first when it is not `usable` (a file copied into the
   * models dir is found without a manual rescan). A burst of requests for unknown names must not
   * turn into a burst of folder scans: a miss rescans at most once per `missRescanIntervalMs`.
   */
  private async lookUp(
    modelId: string,
    usable: (entry: CatalogEntry | undefined) => boolean,
  ): Promise<CatalogEntry | undefined> {
    await this.ensureScanned();
    const entry = ownEntry((await this.file.read()).models, modelId);
    if (usable(entry) || Date.now() - this.lastMissRescanAt < ModelCatalog.missRescanIntervalMs) return entry;
    this.lastMissRescanAt = Date.now();
    // A rescan that cannot save (a full disk) must not turn "unknown model" into a storage error:
    // it is logged and shown in the health warnings (`rescan`), and the lookup answers from what is known.
    await this.rescan().catch(() => undefined);
    return ownEntry((await this.file.read()).models, modelId);
  }

  /** Scans the models dirs and merges the result (new → added, gone → missing). */
  rescan(): Promise<RescanResponse> {
    const run = this.scanQueue.run("scan", () => this.scan());
    this.scanned ??= run.catch(() => undefined);
    run.then(
      () => {
        this.rescanFailure = undefined;
      },
      (error: unknown) => {
        log.error({ err: errorMessage(error) }, "model rescan failed");
        this.rescanFailure = {
          code: "storage_error",
          message: `The models could not be rescanned: ${errorMessage(error)}. Models added or removed since are not seen until a rescan works.`,
          path: this.file.path,
        };
      },
    );
    return run;
  }

  /** Why the last rescan failed (a catalog that cannot be written), until one works. */
  private rescanFailure: HealthWarningInput | undefined;

  private refreshing: Promise<void> | undefined;

  /**
   * Rescans only when the models folders hold other files than the catalog knows (one copied in,
   * removed or rewritten), else only walks them: cheap enough for every listing (Ollama's
   * `/api/tags`). Calls while one runs share it.
   */
  refresh(): Promise<void> {
    this.refreshing ??= this.refreshNow().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshNow(): Promise<void> {
    await this.ensureScanned();
    const inView = await this.inView();
    const { models: discovered } = await discoverModels(await this.options.modelsDirs());
    const known = (await this.file.read()).models;
    const seen = new Set(discovered.map((found) => found.id));
    const changed =
      discovered.some((found) => {
        const entry = ownEntry(known, found.id);
        return (
          !entry || entry.missing || entry.size_bytes !== found.sizeBytes || entry.mtime_ms !== found.mtimeMs
        );
      }) || Object.values(known).some((entry) => !entry.missing && inView(entry) && !seen.has(entry.id));
    if (changed) await this.rescan();
  }

  /** Re-reads the catalog file from disk (the admin reload), then rescans. */
  async reload(): Promise<RescanResponse> {
    await this.file.reload();
    return this.rescan();
  }

  async recordDownload(modelId: string, record: DownloadRecord): Promise<CatalogEntry> {
    await this.rescan();
    const now = new Date().toISOString();
    const file = await this.file.update((draft) => {
      const entry = ownEntry(draft.models, modelId);
      if (!entry)
        throw new PerchError("model_not_found", `Downloaded model '${modelId}' was not found on disk.`);
      const replaced = entry.downloaded_at !== null || entry.revision !== null;
      Object.assign(entry, {
        source: record.source,
        repo: record.repo,
        remote_path: record.remotePath,
        revision: record.revision,
        file_oid: record.fileOid,
        file_oids: record.fileOids,
        downloaded_at: entry.downloaded_at ?? now,
        updated_at: replaced ? now : entry.updated_at,
        remote_revision: record.head ? record.head.remote_revision : record.revision,
        update_status: record.head?.update_status ?? "up_to_date",
        update_error: null,
        last_checked_at: now,
      } satisfies Partial<CatalogEntry>);
    });
    return ownEntry(file.models, modelId)!;
  }

  async recordUpdateCheck(result: UpdateCheckResult): Promise<void> {
    await this.file.update((draft) => {
      const entry = ownEntry(draft.models, result.model_id);
      if (!entry) return;
      entry.update_status = result.update_status;
      entry.remote_revision = result.remote_revision;
      entry.last_checked_at = result.last_checked_at;
      entry.update_error = result.error;
    });
  }

  /** Deletes the model's files (only inside its models dir) and its catalog entry. */
  async deleteModel(modelId: string): Promise<string[]> {
    const entry = await this.get(modelId);
    const deleted = entry.missing ? [] : await deleteModelFiles(entry, await this.options.modelsDirs());
    await this.file.update((draft) => {
      delete draft.models[modelId];
    });
    log.info({ modelId, files: deleted.length }, "model deleted");
    return deleted;
  }

  /** Which entries the folders in effect show (all, unless `foldersAreAView`). */
  private async inView(): Promise<(entry: CatalogEntry) => boolean> {
    if (!this.options.foldersAreAView) return () => true;
    const dirs = await this.options.modelsDirs();
    return (entry) => inModelsDirs(entry, dirs);
  }

  /** The folders a scan may mark models missing in (`undefined`: any). */
  private viewOf(dirs: string[]): string[] | undefined {
    return this.options.foldersAreAView ? dirs : undefined;
  }

  private ensureScanned(): Promise<unknown> {
    // `rescan` logs a failure and reports it in the health warnings.
    this.scanned ??= this.rescan().catch(() => undefined);
    return this.scanned;
  }

  private async scan(): Promise<RescanResponse> {
    const modelsDirs = await this.options.modelsDirs();
    const { models: discovered, warnings } = await discoverModels(modelsDirs);
    this.scanWarnings = warnings;
    const before = (await this.file.read()).models;
    // Read the headers outside the file update (it is slow), keyed by size+mtime, then merge
    // into the catalog as it is at write time, so an update check recorded meanwhile survives.
    const preview = reconcileCatalog((await this.file.read()).models, discovered, this.viewOf(modelsDirs));
    const facts = new Map<string, Pick<CatalogEntry, "gguf" | "gguf_error" | "size_bytes" | "mtime_ms">>();
    for (const id of preview.stale) {
      const entry = preview.models[id];
      facts.set(id, {
        ...(await this.readFacts(entry)),
        size_bytes: entry.size_bytes,
        mtime_ms: entry.mtime_ms,
      });
    }
    const merge = (models: Readonly<Record<string, CatalogEntry>>) => {
      const merged = reconcileCatalog(models, discovered, this.viewOf(modelsDirs));
      for (const id of merged.stale) {
        const entry = merged.models[id];
        const read = facts.get(id);
        if (read && read.size_bytes === entry.size_bytes && read.mtime_ms === entry.mtime_ms) {
          entry.gguf = read.gguf;
          entry.gguf_error = read.gguf_error;
        }
      }
      return merged;
    };
    let reconciled = merge((await this.file.read()).models);
    // Nothing found that the catalog does not say already: no write (a request for an unknown
    // name rescans, and must not rewrite the file each time, nor fail when the disk is full).
    if (!isDeepStrictEqual(reconciled.models, (await this.file.read()).models)) {
      await this.file.update((draft) => {
        reconciled = merge(draft.models);
        draft.models = reconciled.models;
      });
    }
    if (reconciled.added.length > 0 || reconciled.missing.length > 0) {
      log.info({ added: reconciled.added, missing: reconciled.missing }, "models rescanned");
    }
    for (const found of discovered) this.verifyTouched(ownEntry(before, found.id), found);
    return {
      added: reconciled.added,
      missing: reconciled.missing,
      total: Object.values(reconciled.models).filter(
        (entry) => !entry.missing && (!this.options.foldersAreAView || inModelsDirs(entry, modelsDirs)),
      ).length,
      models_dirs: modelsDirs,
    };
  }

  private readonly verifying = new Map<string, Promise<void>>();

  /** Settles when the content checks started by scans so far are done (tests, shutdown). */
  async verified(): Promise<void> {
    while (this.verifying.size > 0) await Promise.all([...this.verifying.values()]);
  }

  /**
   * A downloaded file whose modification time changed but not its size (touched, copied without
   * its times, restored from a backup) lost its commit and content id in the scan, since the scan
   * does not read the bytes. Its SHA-256 is computed in the background once; when it is still the
   * content id recorded at download, the provenance comes back (the file is the hub's, untouched).
   * A file of one piece only: a split model's shards are keyed by their repo paths.
   */
  private verifyTouched(previous: CatalogEntry | undefined, found: DiscoveredModel): void {
    if (!previous || found.hf || found.files.length !== 1 || previous.files.length !== 1) return;
    if (previous.size_bytes !== found.sizeBytes || previous.mtime_ms === found.mtimeMs) return;
    const oid = previous.file_oid;
    if (!oid || !/^[0-9a-f]{64}$/.test(oid) || previous.revision === null) return;
    const key = `${found.id}\0${found.mtimeMs}`;
    if (this.verifying.has(key)) return;
    const run = (async () => {
      const sha256 = await sha256OfFile(found.path);
      if (sha256 !== oid) {
        log.info({ modelId: found.id }, "a touched model file has other content: its commit stays unknown");
        return;
      }
      await this.file.update((draft) => {
        const entry = ownEntry(draft.models, found.id);
        const unchanged =
          entry &&
          entry.size_bytes === found.sizeBytes &&
          entry.mtime_ms === found.mtimeMs &&
          entry.revision === null &&
          entry.file_oid === null &&
          entry.source === previous.source &&
          entry.repo === previous.repo;
        if (!unchanged) return;
        entry.revision = previous.revision;
        entry.file_oid = previous.file_oid;
        if (previous.file_oids) entry.file_oids = previous.file_oids;
        entry.update_status = previous.update_status;
        entry.update_error = previous.update_error;
      });
      log.info({ modelId: found.id }, "a touched model file is still the downloaded one: commit kept");
    })()
      .catch((error: unknown) =>
        log.warn({ modelId: found.id, err: errorMessage(error) }, "could not check a touched model file"),
      )
      .finally(() => this.verifying.delete(key));
    this.verifying.set(key, run);
  }

  private async readFacts(entry: CatalogEntry): Promise<Pick<CatalogEntry, "gguf" | "gguf_error">> {
    try {
      return {
        gguf: await (this.options.readFacts ?? readGgufFacts)(entry.path, entry.files.length),
        gguf_error: null,
      };
    } catch (error) {
      const message = errorMessage(error).slice(0, 500);
      log.warn({ modelId: entry.id, err: message }, "could not read the GGUF header");
      return { gguf: null, gguf_error: message };
    }
  }

  private async currentWarnings(): Promise<HealthWarningInput[]> {
    const inView = await this.inView();
    const models = Object.values((await this.file.read()).models);
    const missing = models
      .filter((entry) => entry.missing && inView(entry))
      .map((entry) => ({
        code: "missing_model" as const,
        message: `Model '${entry.id}' is in the catalog but its file is gone (${entry.path}).`,
        path: entry.path,
        model_id: entry.id,
      }));
    return [...this.scanWarnings, ...(this.rescanFailure ? [this.rescanFailure] : []), ...missing];
  }
}

function isWellFormed(modelId: string): boolean {
  try {
    assertModelId(modelId);
    return true;
  } catch {
    return false;
  }
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
