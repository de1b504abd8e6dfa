import type {
  CommunityUploadPayload,
  PerfUploadStatus,
  PerformanceResult,
} from "../../../src-shared/contracts/performance.js";
import { PerchError } from "../../base/PerchError.js";
import { createLogger } from "../../base/createLogger.js";
import { decideUploadSkip } from "./decideUploadSkip.js";
import { errorMessage } from "../../base/describeError.js";

const log = createLogger("perf");

/** The result store operations uploads need (the catalog's `ResultStore` has them). */
export interface PerfResultWriter {
  get(resultId: string): Promise<PerformanceResult>;
  put(result: PerformanceResult): Promise<PerformanceResult>;
  /** Every result, for `failInterrupted`. Defaults to none (nothing is recovered). */
  list?(): Promise<PerformanceResult[]>;
}

export interface CommunityUploaderOptions {
  store: PerfResultWriter;
  /** The `community_upload_url` setting, read at each upload (the user may change it). */
  getEndpoint: () => Promise<string | null>;
  buildPayload: (result: PerformanceResult) => Promise<CommunityUploadPayload>;
  /** Replaces the global `fetch` (tests). Defaults to `fetch`. */
  fetch?: typeof fetch;
  /** Milliseconds before an upload counts as failed. Defaults to `30000`. */
  timeoutMs?: number;
}

/**
 * Sends results to the community site and records every step on the result itself
 * (`uploading` → `uploaded` | `duplicate` | `failed`), so the dashboard shows it and a failed
 * upload can be retried later. A failure never touches the measured numbers.
 */
export class CommunityUploader {
  private readonly inFlight = new Set<string>();

  constructor(private readonly options: CommunityUploaderOptions) {}

  /**
   * At startup: a result left `uploading` by a process that stopped mid-upload (a crash) would
   * stay so forever, and only `failed` offers Retry. One whose upload began longer ago than an
   * upload may take (the timeout) is marked `failed` (interrupted) now; a younger one (another
   * process may still be sending it) is looked at again once that time has passed.
   */
  async failInterrupted(now = Date.now()): Promise<number> {
    const limit = (this.options.timeoutMs ?? 30_000) + 5_000;
    let marked = 0;
    for (const result of (await this.options.store.list?.()) ?? []) {
      const upload = result.upload;
      if (upload.state !== "uploading" || this.inFlight.has(result.result_id)) continue;
      const age = now - Date.parse(upload.started_at);
      if (!(age < limit)) {
        await this.options.store.put({
          ...result,
          upload: {
            state: "failed",
            at: new Date(now).toISOString(),
            error: "interrupted: Perch stopped during the upload",
          },
        });
        marked += 1;
      } else {
        setTimeout(() => void this.failStale(result.result_id, upload.started_at), limit - age).unref();
      }
    }
    return marked;
  }

  /** Marks the result failed if it is still in the same upload (same start) and not ours. */
  private async failStale(resultId: string, startedAt: string): Promise<void> {
    const result = await this.options.store.get(resultId).catch(() => null);
    if (result?.upload.state !== "uploading" || result.upload.started_at !== startedAt) return;
    if (this.inFlight.has(resultId)) return;
    await this.options.store
      .put({
        ...result,
        upload: {
          state: "failed",
          at: new Date().toISOString(),
          error: "interrupted: Perch stopped during the upload",
        },
      })
      .catch((error: unknown) =>
        log.warn({ resultId, err: errorMessage(error) }, "could not mark an upload failed"),
      );
  }

  /** After a run: uploads when the run asked for it, else leaves `not_requested`. */
  async settle(
    result: PerformanceResult,
    onStatus?: (status: PerfUploadStatus) => void,
  ): Promise<PerformanceResult> {
    if (!result.upload_requested) return result;
    return this.upload(result, onStatus);
  }

  /** `POST .../results/{id}/upload`: (re)tries any result not already on the site. */
  async retry(resultId: string, onStatus?: (status: PerfUploadStatus) => void): Promise<PerformanceResult> {
    const result = await this.options.store.get(resultId);
    if (result.upload.state === "uploaded" || result.upload.state === "duplicate") {
      throw new PerchError("conflict", `Result '${resultId}' is already on the community site.`);
    }
    if (result.status === "cancelled") {
      throw new PerchError(
        "conflict",
        `Result '${resultId}' is of a run cancelled part-way; only completed runs go to the community site.`,
      );
    }
    return this.upload({ ...result, upload_requested: true }, onStatus);
  }

  private async upload(
    result: PerformanceResult,
    onStatus?: (status: PerfUploadStatus) => void,
  ): Promise<PerformanceResult> {
    if (this.inFlight.has(result.result_id)) {
      throw new PerchError("conflict", `Result '${result.result_id}' is being uploaded right now.`);
    }
    this.inFlight.add(result.result_id);
    let current = result;
    const record = async (status: PerfUploadStatus) => {
      current = await this.options.store.put({ ...current, upload: status });
      onStatus?.(status);
    };
    try {
      const endpoint = await this.options.getEndpoint();
      const skip = decideUploadSkip({
        targetKind: result.target.kind,
        experimentalFeatures: result.environment.experimental_features,
        otherRequests: result.environment.other_requests,
        endpoint,
      });
      if (skip || !endpoint) {
        await record({ state: "skipped", code: skip?.code ?? "no_endpoint", reason: skip?.reason ?? "" });
        return current;
      }
      await record({ state: "uploading", started_at: new Date().toISOString() });
      await record(await this.send(endpoint, result));
      return current;
    } finally {
      this.inFlight.delete(result.result_id);
    }
  }

  private async send(endpoint: string, result: PerformanceResult): Promise<PerfUploadStatus> {
    const at = () => new Date().toISOString();
    try {
      const payload = await this.options.buildPayload(result);
      const response = await (this.options.fetch ?? fetch)(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
      const text = await response.text().catch(() => "");
      if (response.status === 409) return { state: "duplicate", at: at() };
      if (!response.ok) {
        log.warn({ resultId: result.result_id, status: response.status }, "community upload rejected");
        return {
          state: "failed",
          at: at(),
          error: `HTTP ${response.status}${text ? `: ${text.slice(0, 300)}` : ""}`,
        };
      }
      return { state: "uploaded", at: at(), remote_id: remoteIdOf(text) };
    } catch (error) {
      log.warn({ resultId: result.result_id, err: errorMessage(error) }, "community upload failed");
      return { state: "failed", at: at(), error: errorMessage(error).slice(0, 500) };
    }
  }
}

function remoteIdOf(text: string): string | null {
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === "string" || typeof id === "number" ? String(id) : null;
  } catch {
    return null;
  }
}
