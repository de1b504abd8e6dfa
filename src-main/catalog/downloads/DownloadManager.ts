import crypto from "node:crypto";
import fs from "node:fs/promises";
import type {
  DownloadEvent,
  DownloadRequest,
  DownloadRun,
  RemoteSource,
  RepoFilesResponse,
} from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../base/PerchError.js";
import { createLogger } from "../../base/createLogger.js";
import type { DownloadRecord, ModelCatalog } from "../ModelCatalog.js";
import { compareWithListing } from "../compareWithListing.js";
import { assertModelId, modelIdFromPath } from "../modelIdFromPath.js";
import { downloadFileResumable, lockDownloadTarget, resumableBytes } from "./downloadFileResumable.js";
import { groupRemoteGgufs } from "./groupRemoteGgufs.js";
import type { ModelDownloader, RemoteFileInfo } from "./ModelDownloader.js";
import { pickRemoteGguf } from "./pickRemoteGguf.js";
import { RunEventLog } from "../../base/RunEventLog.js";
import { safeDownloadTarget } from "./safeDownloadTarget.js";
import { errorMessage, toPerchError } from "../../base/describeError.js";

const log = createLogger("catalog");

export interface DownloadManagerOptions {
  catalog: ModelCatalog;
  downloaders: Record<RemoteSource, ModelDownloader>;
  /** Folder downloads go to (the first effective models dir), asked per download. */
  targetDir: () => Promise<string> | string;
  /** Least time between two progress events of a run. Defaults to `250` ms. */
  progressIntervalMs?: number;
  /** Finished runs kept for listing and replay. Defaults to `50`. */
  keepFinished?: number;
}

interface Run {
  info: DownloadRun;
  events: RunEventLog<DownloadEvent>;
  files: { remote: RemoteFileInfo; target: string }[];
  controller: AbortController;
  task: Promise<void>;
  /** The request named a revision: it may be older than the head, so the head is checked. */
  pinned: boolean;
}

/**
 * Model downloads from Hugging Face or ModelScope into the models dir: one run per request,
 * progress as typed events (replayed to late subscribers), cancel and resume (a resumed run
 * continues its `.part` files with Range requests), the catalog updated on success.
 */
export class DownloadManager {
  private readonly runs = new Map<string, Run>();
  private readonly downloadedListeners = new Set<(modelId: string) => void>();
  private readonly options: DownloadManagerOptions;

  /**
   * Calls `listener` with a model's id each time a download of it completes with bytes on disk
   * changed (a new or replaced file); a pull that found every file in place already says nothing.
   */
  onModelDownloaded(listener: (modelId: string) => void): () => void {
    this.downloadedListeners.add(listener);
    return () => this.downloadedListeners.delete(listener);
  }
  constructor(options: DownloadManagerOptions) {
    this.options = options;
  }

  /** A repo's files and its GGUF models grouped for the picker. */
  async repoFiles(source: RemoteSource, repo: string, revision?: string): Promise<RepoFilesResponse> {
    const listing = await this.options.downloaders[source].listFiles(repo, revision);
    return {
      source,
      repo,
      revision: listing.revision,
      files: listing.files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
      ggufs: groupRemoteGgufs(listing.files).map((gguf) => ({
        file: gguf.file,
        files: gguf.files.map((file) => file.path),
        size: gguf.size,
        quant: gguf.quant,
      })),
    };
  }

  /** Resolves the request against the repo listing, then downloads in the background. */
  async start(request: DownloadRequest): Promise<DownloadRun> {
    const downloader = this.options.downloaders[request.source];
    const listing = await downloader.listFiles(request.repo, request.revision);
    const gguf = pickRemoteGguf(listing, request);
    const targetDir = await this.options.targetDir();
    const files = gguf.files.map((remote) => ({
      remote,
      target: safeDownloadTarget(targetDir, request.repo, remote.path),
    }));
    const modelId = modelIdFromPath(`${request.repo}/${gguf.file}`).id;
    assertModelId(modelId);
    await this.assertSameSource(modelId, request.source);
    const busy = [...this.runs.values()].find(
      (run) => run.info.status === "running" && run.info.model_id === modelId,
    );
    if (busy)
      throw new PerchError("conflict", `'${modelId}' is already downloading (run ${busy.info.run_id}).`, {
        details: { run_id: busy.info.run_id },
      });

    const now = new Date().toISOString();
    const runId = `dl-${Date.now().toString(36)}-${crypto.randomBytes(4).toString("hex")}`;
    const run: Run = {
      info: {
        run_id: runId,
        source: request.source,
        repo: request.repo,
        revision: gguf.files[0].revision ?? listing.revision,
        model_id: modelId,
        files: gguf.files.map(({ path, size, sha256 }) => ({ path, size, sha256 })),
        status: "running",
        downloaded_bytes: 0,
        total_bytes: gguf.size,
        error: null,
        created_at: now,
        updated_at: now,
      },
      events: newEventLog(),
      files,
      controller: new AbortController(),
      task: Promise.resolve(),
      pinned: request.revision !== undefined,
    };
    this.runs.set(runId, run);
    this.prune();
    run.task = this.execute(run);
    return { ...run.info };
  }

  /**
   * Both hubs download `owner/name` to the same place: a ModelScope pull of a repo named like a
   * Hugging Face model already here (or the other way round, or over a local file) would replace
   * its file in silence, its results left attached to weights they were not measured on. A file of
   * `unknown` source (in the `owner/repo/file.gguf` layout, its record lost or never made) is the
   * pull's to take: the download keeps it when its sha256 is the hub's, else replaces it.
   */
  private async assertSameSource(modelId: string, source: RemoteSource): Promise<void> {
    const existing = (await this.options.catalog.list()).find((entry) => entry.id === modelId);
    if (!existing || existing.missing || existing.source === source || existing.source === "unknown") return;
    const names: Record<string, string> = {
      hf: "Hugging Face",
      modelscope: "ModelScope",
      local: "a local file",
    };
    const from = names[existing.source] ?? "another source";
    throw new PerchError(
      "conflict",
      `'${modelId}' is already here, from ${from}; downloading it from ${names[source]} would replace that file (and leave its results on other weights). Delete it first (perch rm ${modelId}) to replace it.`,
      { details: { model_id: modelId, source: existing.source } },
    );
  }

  /**
   * Cancels every running download and waits for each to stop (its `.part` kept, its lock
   * released), so a process that ends leaves no lock for the next pull to wait out.
   */
  async close(): Promise<void> {
    const running = [...this.runs.values()].filter((run) => run.info.status === "running");
    for (const run of running) run.controller.abort();
    await Promise.all(running.map((run) => run.task));
  }

  list(): DownloadRun[] {
    return [...this.runs.values()].map((run) => ({ ...run.info })).reverse();
  }

  get(runId: string): DownloadRun {
    return { ...this.run(runId).info };
  }

  /** Stops a running download; its `.part` files stay for `resume`. */
  async cancel(runId: string): Promise<DownloadRun> {
    const run = this.run(runId);
    if (run.info.status !== "running") {
      throw new PerchError("conflict", `Download ${runId} is ${run.info.status}, not running.`);
    }
    run.controller.abort();
    await run.task;
    return { ...run.info };
  }

  /** Continues a failed or cancelled download from the bytes already on disk. */
  resume(runId: string): DownloadRun {
    const run = this.run(runId);
    if (run.info.status !== "failed" && run.info.status !== "cancelled") {
      throw new PerchError(
        "conflict",
        `Download ${runId} is ${run.info.status}; only failed or cancelled runs resume.`,
      );
    }
    run.controller = new AbortController();
    run.events.reopen();
    this.update(run, { status: "running", error: null });
    run.task = this.execute(run);
    return { ...run.info };
  }

  /**
   * Replays the run's events so far, then follows it; `onEnd` once it stops (completed, failed or
   * cancelled), at once for a stopped run. A resumed run's replay holds its earlier attempts too.
   */
  subscribe(runId: string, listener: (event: DownloadEvent) => void, onEnd?: () => void): () => void {
    return this.run(runId).events.subscribe(listener, onEnd);
  }

  /** Resolves when the run stops running (tests, the CLI). */
  async wait(runId: string): Promise<DownloadRun> {
    await this.run(runId).task;
    return this.get(runId);
  }

  private run(runId: string): Run {
    const run = this.runs.get(runId);
    if (!run) throw new PerchError("run_not_found", `No download run '${runId}'.`);
    return run;
  }

  private async execute(run: Run): Promise<void> {
    const { info } = run;
    const signal = run.controller.signal;
    const at = () => new Date().toISOString();
    try {
      const changed = await this.transfer(run);
      const first = run.files[0].remote;
      const record = {
        source: info.source,
        repo: info.repo,
        remotePath: first.path,
        revision: first.revision ?? info.revision,
        fileOid: first.sha256,
        fileOids: Object.fromEntries(run.files.map(({ remote }) => [remote.path, remote.sha256])),
      };
      const head = run.pinned ? await this.compareWithHead(record) : undefined;
      const entry = await this.options.catalog.recordDownload(info.model_id, {
        ...record,
        ...(head ? { head } : {}),
      });
      // A model loaded from the file just replaced still runs the old weights (its mapping); one
      // whose file was already the hub's (nothing downloaded) goes on running, pinned or not.
      if (changed) for (const listener of this.downloadedListeners) listener(info.model_id);
      // The bytes are the hub's, but no GGUF: the pull did not give a usable model.
      if (entry.gguf_error !== null) {
        throw new PerchError(
          "invalid_model_file",
          `${info.repo}/${first.path} is not a readable GGUF file (${entry.gguf_error}); it cannot be loaded. Delete it with perch rm ${info.model_id}.`,
          { details: { model_id: info.model_id, gguf_error: entry.gguf_error } },
        );
      }
      this.update(run, { status: "completed" });
      run.events.append({ type: "completed", run_id: info.run_id, at: at(), model_id: info.model_id });
      log.info({ runId: info.run_id, modelId: info.model_id }, "download completed");
    } catch (error) {
      const perch = toPerchError(error);
      if (signal.aborted) {
        this.update(run, { status: "cancelled" });
        run.events.append({
          type: "cancelled",
          run_id: info.run_id,
          at: at(),
          downloaded_bytes: info.downloaded_bytes,
        });
      } else {
        const failure = { code: perch.code, message: perch.message };
        this.update(run, { status: "failed", error: failure });
        run.events.append({
          type: "failed",
          run_id: info.run_id,
          at: at(),
          error: failure,
          downloaded_bytes: info.downloaded_bytes,
        });
        log.warn({ runId: info.run_id, err: perch.message }, "download failed");
      }
    }
  }

  /**
   * Locks every file of the run (another process downloading one of them refuses this run before
   * it says anything of the bytes on disk, which are that process's), then downloads them; the
   * locks are released before the run's outcome is told, so a pull right after it finds them free.
   * Answers whether any file on disk changed (false when each was in place with the hub's sha256).
   */
  private async transfer(run: Run): Promise<boolean> {
    const { info } = run;
    const signal = run.controller.signal;
    const at = () => new Date().toISOString();
    const releases: (() => Promise<void>)[] = [];
    try {
      for (const { remote, target } of run.files)
        releases.push(await lockDownloadTarget(target, remote.path));
      const onDisk = await Promise.all(
        run.files.map(({ remote, target }) =>
          resumableBytes(target, {
            repo: info.repo,
            path: remote.path,
            revision: remote.revision ?? info.revision,
            size: remote.size,
            sha256: remote.sha256,
          }),
        ),
      );
      const resumedFrom = onDisk.reduce((sum, bytes) => sum + bytes, 0);
      this.update(run, { downloaded_bytes: resumedFrom });
      run.events.append({
        type: "started",
        run_id: info.run_id,
        at: at(),
        source: info.source,
        repo: info.repo,
        revision: info.revision,
        model_id: info.model_id,
        files: info.files,
        total_bytes: info.total_bytes,
        resumed_from_bytes: resumedFrom,
      });
      const speed = { since: Date.now(), bytes: resumedFrom, lastEvent: 0 };
      let done = 0;
      let changed = false;
      for (const { remote, target } of run.files) {
        const before = await fileStamp(target);
        const sha256 = await downloadFileResumable({
          downloader: this.options.downloaders[info.source],
          repo: info.repo,
          revision: remote.revision ?? info.revision,
          file: remote,
          target,
          signal,
          onBytes: (bytes) => this.progress(run, remote.path, done + bytes, speed),
          onVerifying: () =>
            run.events.append({ type: "verifying", run_id: info.run_id, at: at(), file: remote.path }),
        });
        changed ||= before === undefined || before !== (await fileStamp(target));
        done += remote.size;
        this.update(run, { downloaded_bytes: done });
        run.events.append({
          type: "file_completed",
          run_id: info.run_id,
          at: at(),
          file: remote.path,
          sha256,
        });
      }
      return changed;
    } finally {
      for (const release of releases.reverse()) await release().catch(() => undefined);
    }
  }

  /**
   * How a download of a named revision compares with the repo's head (a pull of `dev`, older than
   * `main`, is not up to date); `unknown` when the head cannot be listed or lacks the files.
   */
  private async compareWithHead(
    record: Pick<DownloadRecord, "source" | "repo" | "revision" | "fileOids">,
  ): Promise<NonNullable<DownloadRecord["head"]>> {
    try {
      const listing = await this.options.downloaders[record.source].listFiles(record.repo);
      return compareWithListing(
        { repo: record.repo, revision: record.revision, fileOids: record.fileOids },
        listing,
      );
    } catch (error) {
      log.warn({ repo: record.repo, err: errorMessage(error) }, "could not compare a download with the head");
      return { update_status: "unknown", remote_revision: null };
    }
  }

  private progress(
    run: Run,
    file: string,
    downloaded: number,
    speed: { since: number; bytes: number; lastEvent: number },
  ) {
    this.update(run, { downloaded_bytes: downloaded });
    const now = Date.now();
    if (now - speed.lastEvent < (this.options.progressIntervalMs ?? 250) && downloaded < run.info.total_bytes)
      return;
    speed.lastEvent = now;
    const seconds = Math.max(0.001, (now - speed.since) / 1000);
    run.events.append({
      type: "progress",
      run_id: run.info.run_id,
      at: new Date(now).toISOString(),
      file,
      downloaded_bytes: downloaded,
      total_bytes: run.info.total_bytes,
      bytes_per_second: Math.round((downloaded - speed.bytes) / seconds),
    });
  }

  private update(run: Run, patch: Partial<DownloadRun>): void {
    Object.assign(run.info, patch, { updated_at: new Date().toISOString() });
  }

  private prune(): void {
    const finished = [...this.runs.values()].filter((run) => run.info.status !== "running");
    const excess = finished.length - (this.options.keepFinished ?? 50);
    for (const run of finished.slice(0, Math.max(0, excess))) this.runs.delete(run.info.run_id);
  }
}

const terminalTypes = new Set<DownloadEvent["type"]>(["completed", "failed", "cancelled"]);

/** A download's events: progress collapses in the replay, and a stop ends the stream (resume reopens it). */
function newEventLog(): RunEventLog<DownloadEvent> {
  return new RunEventLog<DownloadEvent>({
    isProgress: (event) => event.type === "progress",
    isTerminal: (event) => terminalTypes.has(event.type),
  });
}

/** A file's identity on disk (a rename into place changes it), or `undefined` when there is none. */
async function fileStamp(file: string): Promise<string | undefined> {
  const stat = await fs.stat(file).catch(() => undefined);
  return stat && `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}
