import crypto from "node:crypto";
import type {
  EvalQueueListing,
  EvalRunEvent,
  EvalRunRequest,
  EvalRunSummary,
  EvalRunTarget,
} from "../../../src-shared/contracts/evalQueue.js";
import type { BenchmarkName } from "../../../src-shared/contracts/accuracy.js";
import { PerchError } from "../../base/PerchError.js";
import { createLogger } from "../../base/createLogger.js";
import type { InterruptedWork, JournaledRun } from "./EvalJournal.js";
import { EvalRunRecord } from "./EvalRunRecord.js";
import { executeRun, type RunDependencies } from "./executeRun.js";
import { displayBaseUrl } from "../../upstream/displayBaseUrl.js";
import { createResultId } from "../../storage/createResultId.js";
import { errorMessage } from "../../base/describeError.js";

const log = createLogger("evals");

export interface EvalQueueOptions extends Omit<RunDependencies, "now"> {
  /** Waiting runs accepted before `queue_full`. Defaults to `32`. */
  maxWaiting?: number;
  /** Finished runs kept for the listing and stream replay. Defaults to `20`. */
  historySize?: number;
  /** Throws (e.g. `model_not_found`) when a local model id is unknown, so `add` can refuse it. Defaults to no check. */
  assertModel?: (modelId: string) => Promise<void>;
  /**
   * The id a client's name for a model stands for (an alias, `<id>:latest`:
   * `ModelCatalog.canonicalId`), so a run and its result are keyed by the model's id. Defaults to
   * the name as given.
   */
  canonicalId?: (name: string) => Promise<string>;
  /**
   * Throws (e.g. `python_missing`) when these benchmarks cannot run on this machine, so `add`
   * refuses the run before it starts. Defaults to no check.
   */
  assertBenchmarks?: (names: string[]) => Promise<void>;
  /** Defaults to `() => new Date()`. */
  now?: () => Date;
}

/**
 * The server's eval runs: one runs at a time (runs compete for the same model and machine, and
 * timings would mean nothing otherwise), the others wait in order and can be removed or cancelled.
 */
export class EvalQueue {
  private readonly waiting: EvalRunRecord[] = [];
  private current: EvalRunRecord | undefined;
  private currentDone: Promise<void> | undefined;
  private readonly history: EvalRunRecord[] = [];
  private readonly deps: RunDependencies;
  private readonly maxWaiting: number;
  private readonly historySize: number;

  constructor(private readonly options: EvalQueueOptions) {
    const now = options.now ?? (() => new Date());
    this.deps = { ...options, now };
    this.maxWaiting = options.maxWaiting ?? 32;
    this.historySize = options.historySize ?? 20;
  }

  /** Validates and enqueues a run; it starts at once when nothing else runs. */
  async add(given: EvalRunRequest): Promise<EvalRunSummary> {
    const request =
      given.model_id !== undefined && this.options.canonicalId
        ? { ...given, model_id: await this.options.canonicalId(given.model_id) }
        : given;
    const known = new Set(this.options.benchmarks.names());
    const unknown = request.benchmarks.filter((name) => !known.has(name));
    if (unknown.length > 0) {
      throw new PerchError(
        "invalid_request",
        `Unknown benchmark '${unknown[0]}'. Known: ${[...known].join(", ")}.`,
        { param: "benchmarks" },
      );
    }
    for (const [name, variant] of Object.entries(request.variants)) {
      const variants = this.options.benchmarks.variants?.(name as BenchmarkName);
      if (variant === undefined || !variants || variants.includes(variant)) continue;
      throw new PerchError(
        "invalid_request",
        `Benchmark '${name}' has no variant '${variant}'; it has ${variants.join(", ")}.`,
        { param: "variants" },
      );
    }
    if (this.waiting.length >= this.maxWaiting) {
      throw new PerchError("queue_full", `${this.waiting.length} eval runs are already waiting.`);
    }
    if (request.model_id !== undefined) await this.options.assertModel?.(request.model_id);
    await this.options.assertBenchmarks?.(request.benchmarks);
    const run = new EvalRunRecord(newRunId(), request, describeTarget(request), this.deps.now);
    this.waiting.push(run);
    run.emit({ type: "run_queued", position: this.waiting.length });
    this.journalQueue();
    log.info({ runId: run.id, benchmarks: request.benchmarks }, "eval run queued");
    this.pump();
    return this.summaryOf(run);
  }

  list(): EvalQueueListing {
    return {
      running: this.current ? this.summaryOf(this.current) : null,
      queued: this.waiting.map((run) => this.summaryOf(run)),
      finished: [...this.history].reverse().map((run) => this.summaryOf(run)),
    };
  }

  get(runId: string): EvalRunSummary {
    return this.summaryOf(this.find(runId));
  }

  /**
   * Removes a waiting run (it never runs) or forgets a finished one. A running run answers
   * `conflict`: cancel it instead, so its partial result is kept.
   */
  remove(runId: string): EvalRunSummary {
    const run = this.find(runId);
    if (run.state === "running") {
      throw new PerchError("conflict", `Run '${runId}' is running; cancel it instead.`);
    }
    if (run.state === "queued") {
      this.waiting.splice(this.waiting.indexOf(run), 1);
      run.finish("removed");
      this.remember(run);
      this.journalQueue();
      return this.summaryOf(run);
    }
    this.history.splice(this.history.indexOf(run), 1);
    return this.summaryOf(run);
  }

  /** Cancels a waiting or running run; cancelling a cancelled run is a no-op. */
  async cancel(runId: string): Promise<EvalRunSummary> {
    const run = this.find(runId);
    if (run.state === "queued") {
      this.waiting.splice(this.waiting.indexOf(run), 1);
      run.finish("cancelled");
      this.remember(run);
      this.journalQueue();
    } else if (run.state === "running") {
      run.controller.abort(new PerchError("cancelled", "The eval run was cancelled."));
    } else if (run.state !== "cancelled" && run.state !== "removed") {
      throw new PerchError("conflict", `Run '${runId}' already ${run.state}.`);
    }
    return this.summaryOf(run);
  }

  /** Replays the run's events so far, then live ones; `onEnd` after `run_finished`. */
  subscribe(runId: string, onEvent: (event: EvalRunEvent) => void, onEnd?: () => void): () => void {
    return this.find(runId).events.subscribe(onEvent, onEnd);
  }

  /** Resolves when the current run (if any) has ended; for shutdown and tests. */
  async idle(): Promise<void> {
    while (this.currentDone) await this.currentDone;
  }

  /** Cancels everything (shutdown). */
  async close(): Promise<void> {
    for (const run of [...this.waiting]) await this.cancel(run.id);
    // `current` still holds a run that just finished until its bookkeeping runs.
    if (this.current?.state === "running") await this.cancel(this.current.id);
    await this.idle();
  }

  private pump(): void {
    if (this.current || this.waiting.length === 0) return;
    const run = this.waiting.shift()!;
    this.current = run;
    run.state = "running";
    run.startedAt = this.deps.now();
    run.emit({ type: "run_started" });
    this.journalQueue();
    this.currentDone = executeRun(run, this.deps).finally(() => {
      log.info({ runId: run.id, state: run.state }, "eval run finished");
      this.current = undefined;
      this.currentDone = undefined;
      this.remember(run);
      this.journalQueue();
      this.pump();
    });
  }

  /** The runs still to finish, on disk (`journal`), so a crash leaves their trace. */
  private journalQueue(): void {
    const runs: JournaledRun[] = [...(this.current ? [this.current] : []), ...this.waiting].map((run) => ({
      run_id: run.id,
      request: run.request,
      created_at: run.createdAt.toISOString(),
      started_at: run.startedAt?.toISOString() ?? null,
    }));
    void this.options.journal?.saveQueue(runs);
  }

  /**
   * Records what a process that crashed left (`EvalJournal.takeInterrupted`): the running run's
   * answered questions are saved as a cancelled result, as a cancel would have saved them, and
   * every run it held is listed as finished, cancelled, saying why. Runs are not started again:
   * a crash may come back with them, and a restart should not load models on its own.
   */
  async recordInterrupted(work: InterruptedWork): Promise<void> {
    for (const journaled of work.runs) {
      const created = new Date(journaled.created_at);
      let clock = () => created;
      const run = new EvalRunRecord(
        journaled.run_id,
        journaled.request,
        describeTarget(journaled.request),
        () => clock(),
      );
      clock = this.deps.now;
      run.startedAt = journaled.started_at ? new Date(journaled.started_at) : null;
      const partial = work.partials.get(journaled.run_id);
      let saved = "";
      if (partial) {
        const createdAt = this.deps.now();
        const resultId = createResultId("acc", createdAt);
        try {
          await this.options.results.add({
            ...partial,
            result_id: resultId,
            created_at: createdAt.toISOString(),
          });
          run.resultIds.push(resultId);
          saved = ` Its ${partial.questions.length} answered ${partial.benchmark} questions were saved as a cancelled result.`;
        } catch (error) {
          saved = ` Its answered questions could not be saved: ${errorMessage(error)}.`;
        }
      }
      run.error = {
        code: "cancelled",
        message: journaled.started_at
          ? `Perch stopped during the run.${saved}`
          : "Perch stopped before this run started; it did not run. Queue it again.",
      };
      run.finish("cancelled");
      this.remember(run);
      log.warn({ runId: run.id, started: journaled.started_at !== null }, "eval run interrupted by a stop");
    }
  }

  private remember(run: EvalRunRecord): void {
    this.history.push(run);
    while (this.history.length > this.historySize) this.history.shift();
  }

  private find(runId: string): EvalRunRecord {
    const run =
      (this.current?.id === runId ? this.current : undefined) ??
      this.waiting.find((candidate) => candidate.id === runId) ??
      this.history.find((candidate) => candidate.id === runId);
    if (!run) throw new PerchError("run_not_found", `No eval run '${runId}'.`, { param: "run_id" });
    return run;
  }

  private summaryOf(run: EvalRunRecord): EvalRunSummary {
    const index = this.waiting.indexOf(run);
    return run.summary(index >= 0 ? index + 1 : null);
  }
}

function newRunId(): string {
  return `run-${Date.now().toString(36)}-${crypto.randomBytes(4).toString("hex")}`;
}

function describeTarget(request: EvalRunRequest): EvalRunTarget {
  if (request.model_id !== undefined) return { kind: "local", model_id: request.model_id };
  const external = request.external!;
  return {
    kind: "external",
    // Credentials in the URL stay out of listings, events and results.
    base_url: displayBaseUrl(external.base_url),
    model: external.model,
    api_key_set: external.api_key !== undefined,
  };
}
