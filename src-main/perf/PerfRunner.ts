import crypto from "node:crypto";
import type {
  PerfRunRequest,
  PerfTargetInfo,
  PerformanceResult,
} from "../../src-shared/contracts/performance.js";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import { createResultId } from "../storage/createResultId.js";
import { PerfRun } from "./PerfRun.js";
import { displayBaseUrl } from "../upstream/displayBaseUrl.js";
import type { PerfTarget } from "./PerfTarget.js";
import { countSteps, runPerfTests } from "./runPerfTests.js";
import type { CommunityUploader } from "./upload/CommunityUploader.js";
import type { SystemFacts } from "./upload/describeSystem.js";
import { describeError, errorMessage } from "../base/describeError.js";

const log = createLogger("perf");

/** The result store operations a run needs (the catalog's `ResultStore` has them). */
export interface PerfResultStore {
  add(result: PerformanceResult): Promise<PerformanceResult>;
  put(result: PerformanceResult): Promise<PerformanceResult>;
  get(resultId: string): Promise<PerformanceResult>;
  /** Every result (stale uploads are failed at startup). Defaults to none. */
  list?(): Promise<PerformanceResult[]>;
}

export interface PerfRunnerOptions {
  /** Loads the model (or opens the endpoint) of a request. */
  createTarget: (request: PerfRunRequest) => Promise<PerfTarget>;
  /** Throws a typed error (`model_not_found`...) before a run starts. Defaults to no check. */
  validate?: (request: PerfRunRequest) => Promise<void>;
  /**
   * The id a client's name for a model stands for (an alias, `<id>:latest`:
   * `ModelCatalog.canonicalId`), so the result is keyed by the model's id. Defaults to the name as given.
   */
  canonicalId?: (name: string) => Promise<string>;
  store: PerfResultStore;
  uploader: Pick<CommunityUploader, "settle">;
  appVersion: string;
  system: () => Promise<SystemFacts>;
  /** Finished runs kept for late subscribers. Defaults to `8`. */
  keepFinished?: number;
  /** Milliseconds between memory samples. Defaults to `50`. */
  sampleIntervalMs?: number;
}

/**
 * Runs performance benchmarks one at a time (a second start answers 409 `conflict`: two runs
 * would share the machine and measure each other). A run loads its target, warms up, measures,
 * saves the result (then uploads it when asked), and reports each step as an event.
 */
export class PerfRunner {
  private current: PerfRun | undefined;
  private reserved = false;
  private readonly runs = new Map<string, PerfRun>();

  constructor(private readonly options: PerfRunnerOptions) {}

  /** Starts a run; returns once it is registered (the measuring goes on in the background). */
  async start(given: PerfRunRequest): Promise<PerfRun> {
    if (this.reserved || (this.current && !this.current.finished)) {
      const active = this.current?.runId;
      throw new PerchError(
        "conflict",
        `A performance run is already in progress${active ? ` (${active})` : ""}.`,
        {
          details: active ? { run_id: active } : undefined,
        },
      );
    }
    this.reserved = true;
    try {
      const request =
        given.model_id !== undefined && this.options.canonicalId
          ? { ...given, model_id: await this.options.canonicalId(given.model_id) }
          : given;
      await this.options.validate?.(request);
      const run = new PerfRun(`perf-run-${crypto.randomBytes(6).toString("hex")}`, targetInfoOf(request));
      this.current = run;
      this.remember(run);
      void this.execute(run, request);
      return run;
    } finally {
      this.reserved = false;
    }
  }

  get(runId: string): PerfRun | undefined {
    return this.runs.get(runId);
  }

  /** The run in progress, if any. */
  active(): PerfRun | undefined {
    return this.current && !this.current.finished ? this.current : undefined;
  }

  /** Throws `run_not_found` for an unknown id; cancelling a finished run does nothing. */
  cancel(runId: string): PerfRun {
    const run = this.runs.get(runId);
    if (!run) throw new PerchError("run_not_found", `No performance run with id '${runId}'.`);
    run.cancel();
    return run;
  }

  /** Resolves when the current run (if any) has finished. */
  async idle(): Promise<void> {
    const run = this.active();
    if (!run) return;
    await new Promise<void>((resolve) =>
      run.subscribe((event) => ["completed", "failed", "cancelled"].includes(event.type) && resolve()),
    );
  }

  private remember(run: PerfRun): void {
    this.runs.set(run.runId, run);
    const keep = (this.options.keepFinished ?? 8) + 1;
    for (const [id, old] of this.runs) {
      if (this.runs.size <= keep) break;
      if (old.finished) this.runs.delete(id);
    }
  }

  private async execute(run: PerfRun, request: PerfRunRequest): Promise<void> {
    const started = performance.now();
    const plan = {
      prompt_lengths: request.prompt_lengths,
      batch_sizes: request.batch_sizes,
      generated_tokens: request.generated_tokens,
      batch_prompt_tokens: request.batch_prompt_tokens,
    };
    run.emit({ type: "started", target: run.target, plan, total_steps: countSteps(plan) });
    let target: PerfTarget | undefined;
    let result: PerformanceResult;
    // The measured result before it is stored: a run whose only failure is saving still shows it.
    let unsaved: PerformanceResult | undefined;
    let cancelled: boolean;
    try {
      run.emit({ type: "phase", phase: "loading" });
      target = await this.options.createTarget(request);
      run.signal.throwIfAborted();
      run.emit({ type: "phase", phase: "warmup" });
      await target.warmUp(run.signal);
      const outcome = await runPerfTests(run, target, plan, {
        sampleIntervalMs: this.options.sampleIntervalMs,
      });
      // Cancelled part-way: the tests it finished are kept as a cancelled result (never the
      // model's speed, never uploaded); with none finished there is nothing to keep.
      cancelled = run.signal.aborted;
      if (cancelled && outcome.single.length === 0 && outcome.batch.length === 0) run.signal.throwIfAborted();
      run.emit({ type: "phase", phase: "saving" });
      const system = await this.options.system();
      unsaved = {
        result_id: createResultId("perf"),
        created_at: new Date().toISOString(),
        model_id: target.modelId,
        run_id: run.runId,
        target: target.info,
        model: target.model,
        plan,
        single: outcome.single,
        batch: outcome.batch,
        skipped: outcome.skipped,
        peak_rss_bytes: outcome.peak.rssBytes,
        peak_gpu_bytes: outcome.peak.gpuBytes,
        duration_ms: performance.now() - started,
        environment: {
          app_version: this.options.appVersion,
          os: `${system.platform} ${system.osVersion}`,
          arch: system.arch,
          cpu_model: system.chip,
          memory_bytes: system.memoryBytes,
          backend: target.backend,
          threads: target.threads,
          experimental_features: target.experimentalFeatures,
          other_requests: target.otherRequests?.() ?? 0,
        },
        upload_requested: request.upload_to_community && !cancelled,
        upload: { state: "not_requested" },
        ...(cancelled ? { status: "cancelled" as const } : {}),
        ...(target.modelFile ? { model_file: target.modelFile } : {}),
      };
      result = await this.options.store.add(unsaved);
    } catch (error) {
      await target?.close().catch(() => undefined);
      this.finishWithError(run, error, unsaved);
      return;
    }
    await target.close().catch(() => undefined);
    if (cancelled) {
      log.info(
        { runId: run.runId, resultId: result.result_id },
        "performance run cancelled; finished tests kept",
      );
      run.emit({ type: "cancelled", result });
      return;
    }
    // Once saved, the result stands: a cancel now no longer discards it, and an upload failure
    // is recorded on the result rather than failing the run.
    if (result.upload_requested) run.emit({ type: "phase", phase: "uploading" });
    try {
      result = await this.options.uploader.settle(result, (status) =>
        run.emit({ type: "upload", result_id: result.result_id, status }),
      );
    } catch (error) {
      log.error({ runId: run.runId, err: errorMessage(error) }, "recording the upload status failed");
    }
    run.emit({ type: "completed", result });
  }

  private finishWithError(run: PerfRun, error: unknown, unsaved?: PerformanceResult): void {
    if (run.signal.aborted && !unsaved) {
      log.info({ runId: run.runId }, "performance run cancelled");
      run.emit({ type: "cancelled" });
      return;
    }
    const { code, message } = describeError(error);
    log.warn({ runId: run.runId, code, err: message }, "performance run failed");
    run.emit({ type: "failed", error: { code, message }, ...(unsaved ? { unsaved_result: unsaved } : {}) });
  }
}

function targetInfoOf(request: PerfRunRequest): PerfTargetInfo {
  if (request.external) {
    return {
      kind: "external",
      base_url: displayBaseUrl(request.external.base_url),
      model: request.external.model,
      api: request.external.api,
    };
  }
  return { kind: "local", model_id: request.model_id ?? "" };
}
