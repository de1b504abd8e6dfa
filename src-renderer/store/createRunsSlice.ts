import type {
  perfBatchSizeOptions,
  perfPromptLengthOptions,
} from "../../src-shared/contracts/performance.js";
import type { EvalBatchSize, EvalRunSummary, ThinkingMode } from "../../src-shared/contracts/evalQueue.js";
import type { BenchmarkName, SamplingProfile } from "../../src-shared/contracts/accuracy.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import {
  applyEvalEvent,
  applyPerfEvent,
  isFinished,
  newLiveRun,
  type LiveRun,
  type RunKind,
} from "./LiveRun.js";
import type { SliceCreator } from "./PerchState.js";

export interface AccuracyRunForm {
  modelId: string;
  benchmarks: BenchmarkName[];
  /** Questions per benchmark; null = the whole benchmark. */
  sampleSize: number | null;
  batchSize: EvalBatchSize;
  samplingProfile: SamplingProfile;
  thinking: ThinkingMode;
}

export type PromptLength = (typeof perfPromptLengthOptions)[number];
export type ConcurrentRequests = (typeof perfBatchSizeOptions)[number];

export interface PerformanceRunForm {
  modelId: string;
  promptLengths: PromptLength[];
  batchSizes: ConcurrentRequests[];
  upload: boolean;
}

export interface RunsSlice {
  runs: Record<string, LiveRun>;
  runOrder: string[];
  /** Accuracy runs waiting on the server, in the order they will run. */
  accuracyQueue: EvalRunSummary[];
  startingRun: RunKind | null;
  runError: { kind: RunKind; error: ErrorInfo } | null;
  startAccuracyRun(form: AccuracyRunForm): Promise<void>;
  startPerformanceRun(form: PerformanceRunForm): Promise<void>;
  cancelRun(runId: string): Promise<void>;
  removeQueuedRun(runId: string): Promise<void>;
  /** Picks up runs already going on the server (page reload, another window). */
  refreshRuns(): Promise<void>;
  /** Follows a run's event stream; `steps`: an accuracy run's benchmarks, in order. */
  watchRun(kind: RunKind, runId: string, modelId: string, steps?: string[]): void;
  dismissRun(runId: string): void;
}

/** The model a run is about: a local model id, or `model @ base URL` for an external target. */
function targetName(
  target: EvalRunSummary["target"] | { kind: "external"; model: string; base_url: string },
): string {
  return target.kind === "local" ? target.model_id : `${target.model} @ ${target.base_url}`;
}

export const createRunsSlice: SliceCreator<RunsSlice> = (set, get, { client, now }) => {
  /** Runs followed live, each with the function that closes its stream. */
  const watching = new Map<string, () => void>();
  const stopWatching = (runId: string) => {
    watching.get(runId)?.();
    watching.delete(runId);
  };
  const putRun = (run: LiveRun) => {
    const runOrder = get().runOrder.includes(run.runId) ? get().runOrder : [run.runId, ...get().runOrder];
    set({ runs: { ...get().runs, [run.runId]: run }, runOrder });
  };
  const finish = async (runId: string) => {
    stopWatching(runId);
    await Promise.all([get().loadHistory(), get().loadModels(), get().refreshRuns()]);
  };

  return {
    runs: {},
    runOrder: [],
    accuracyQueue: [],
    startingRun: null,
    runError: null,

    async startAccuracyRun(form) {
      set({ startingRun: "accuracy", runError: null });
      try {
        const run = await client.request("queueAccuracyRun", {
          body: {
            model_id: form.modelId,
            benchmarks: form.benchmarks,
            sample_size: form.sampleSize ?? 0,
            batch_size: form.batchSize,
            sampling_profile: form.samplingProfile,
            thinking: form.thinking,
          },
        });
        get().watchRun("accuracy", run.run_id, form.modelId, run.benchmarks);
      } catch (error) {
        set({ runError: { kind: "accuracy", error: toErrorInfo(error) } });
      } finally {
        set({ startingRun: null });
      }
    },

    async startPerformanceRun(form) {
      set({ startingRun: "performance", runError: null });
      try {
        const run = await client.request("startPerformanceRun", {
          body: {
            model_id: form.modelId,
            prompt_lengths: form.promptLengths,
            batch_sizes: form.batchSizes,
            upload_to_community: form.upload,
          },
        });
        get().watchRun("performance", run.run_id, form.modelId);
      } catch (error) {
        set({ runError: { kind: "performance", error: toErrorInfo(error) } });
      } finally {
        set({ startingRun: null });
      }
    },

    async cancelRun(runId) {
      const run = get().runs[runId];
      try {
        if (run?.kind === "performance")
          await client.request("cancelPerformanceRun", { params: { run_id: runId } });
        else await client.request("cancelAccuracyRun", { params: { run_id: runId } });
      } catch (error) {
        get().reportError(error);
      }
    },

    async removeQueuedRun(runId) {
      try {
        await client.request("removeAccuracyRun", { params: { run_id: runId } });
        await get().refreshRuns();
      } catch (error) {
        get().reportError(error);
      }
    },

    async refreshRuns() {
      const [queue, active] = await Promise.allSettled([
        client.request("listAccuracyQueue"),
        client.request("activePerformanceRun"),
      ]);
      if (queue.status === "fulfilled") {
        set({ accuracyQueue: queue.value.queued });
        const running = queue.value.running;
        if (running)
          get().watchRun("accuracy", running.run_id, targetName(running.target), running.benchmarks);
      }
      if (active.status === "fulfilled" && active.value.active?.state === "running") {
        const run = active.value.active;
        get().watchRun("performance", run.run_id, targetName(run.target));
      }
    },

    watchRun(kind, runId, modelId, steps = []) {
      if (watching.has(runId)) return;
      // Claimed before subscribing: a replayed stream may call back before `subscribe` returns.
      watching.set(runId, () => {});
      if (!get().runs[runId]) putRun(newLiveRun(kind, runId, modelId, now(), steps));
      const fold = (apply: (run: LiveRun) => LiveRun) => {
        const current = get().runs[runId];
        if (!current) return;
        const next = apply(current);
        putRun(next);
        if (isFinished(next) && !isFinished(current)) void finish(runId);
      };
      const handlers = {
        onError: (error: { code?: string; message: string }) => {
          const current = get().runs[runId];
          // The connection broke (Perch stopped: the run was cancelled with it), not the run.
          const lost = error.code === "network_error";
          if (current && !isFinished(current))
            putRun({ ...current, status: lost ? "interrupted" : "failed", error: error.message });
          void finish(runId);
        },
        onEnd: () => {
          const current = get().runs[runId];
          if (current && !isFinished(current)) putRun({ ...current, status: "completed", etaSeconds: 0 });
          void finish(runId);
        },
      };
      const unsubscribe =
        kind === "accuracy"
          ? client.subscribe(
              "accuracyRun",
              { run_id: runId },
              {
                ...handlers,
                onEvent: (event) => {
                  fold((run) => applyEvalEvent(run, event, now()));
                  // The server's queue moves on when a run starts or ends.
                  if (event.type === "run_started" || event.type === "benchmark_finished")
                    void get().refreshRuns();
                },
              },
            )
          : client.subscribe(
              "performanceRun",
              { run_id: runId },
              {
                ...handlers,
                onEvent: (event) => fold((run) => applyPerfEvent(run, event, now())),
              },
            );
      // The stream may have ended (and stopped being watched) while it replayed.
      if (watching.has(runId)) watching.set(runId, unsubscribe);
      else unsubscribe();
    },

    /** Hides a run's card and closes its stream: a dismissed run no longer streams. */
    dismissRun(runId) {
      stopWatching(runId);
      const runs = { ...get().runs };
      delete runs[runId];
      set({ runs, runOrder: get().runOrder.filter((id) => id !== runId) });
    },
  };
};
