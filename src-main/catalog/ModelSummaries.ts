import type {
  AccuracyResultCore,
  AccuracySummary,
  PerformanceResultCore,
  ModelFile,
  PerformanceSummary,
} from "../../src-shared/contracts/results.js";
import { createLogger } from "../base/createLogger.js";
import type { ResultSource } from "./ResultSource.js";
import { emptyAccuracySummary, summarizeAccuracy } from "./summarizeAccuracy.js";
import { summarizePerformance } from "./summarizePerformance.js";

const log = createLogger("catalog");

export interface ModelSummary {
  accuracy: AccuracySummary;
  performance: PerformanceSummary | null;
}

/**
 * Benchmark summaries per model, computed from the result stores on first use and recomputed
 * for the affected models whenever results are added, deleted or reset, or the model's file
 * changes (an update pulled: results of the earlier file are marked).
 */
export class ModelSummaries {
  private readonly cache = new Map<string, { file: string; summary: Promise<ModelSummary> }>();
  /** The file each model's summary was last asked for, so a recompute after a change marks the same way. */
  private readonly files = new Map<string, ModelFile | undefined>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly sources: {
      accuracy?: ResultSource<AccuracyResultCore>;
      performance?: ResultSource<PerformanceResultCore>;
    },
  ) {
    for (const source of [sources.accuracy, sources.performance]) {
      if (!source) continue;
      this.unsubscribe.push(
        source.onChange((change) => {
          for (const modelId of change.model_ids) {
            this.cache.delete(modelId);
            void this.cached(modelId, this.files.get(modelId)); // recompute now, so the next read is instant
          }
        }),
      );
    }
  }

  /**
   * The model's summary. The stores catch up with their folders first (one stat each): a result
   * another process saved (`perch eval run` beside the server) recomputes the summary, rather
   * than the model row showing the old one until something lists the results.
   */
  async get(modelId: string, currentFile?: ModelFile): Promise<ModelSummary> {
    await Promise.all([this.sources.accuracy?.refresh?.(), this.sources.performance?.refresh?.()]);
    return this.cached(modelId, currentFile);
  }

  private cached(modelId: string, currentFile: ModelFile | undefined): Promise<ModelSummary> {
    this.files.set(modelId, currentFile);
    const file = JSON.stringify(currentFile ?? null);
    const entry = this.cache.get(modelId);
    if (entry && entry.file === file) return entry.summary;
    const summary = this.compute(modelId, currentFile);
    const created = { file, summary };
    this.cache.set(modelId, created);
    summary.catch((error: Error) => {
      log.error({ modelId, err: error.message }, "could not summarize results");
      if (this.cache.get(modelId) === created) this.cache.delete(modelId);
    });
    return summary;
  }

  dispose(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }

  private async compute(modelId: string, currentFile: ModelFile | undefined): Promise<ModelSummary> {
    const [accuracy, performance] = await Promise.all([
      this.sources.accuracy?.list({ model_id: modelId }) ?? Promise.resolve([]),
      this.sources.performance?.list({ model_id: modelId }) ?? Promise.resolve([]),
    ]);
    return {
      accuracy:
        accuracy.length > 0
          ? summarizeAccuracy(accuracy, currentFile)
          : structuredClone(emptyAccuracySummary),
      performance: summarizePerformance(performance, currentFile),
    };
  }
}
