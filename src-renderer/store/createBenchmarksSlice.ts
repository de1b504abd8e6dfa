import type { PerformanceResult } from "../../src-shared/contracts/performance.js";
import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { LoadStatus, SliceCreator } from "./PerchState.js";

export interface BenchmarksSlice {
  accuracyResults: AccuracyResult[];
  performanceResults: PerformanceResult[];
  historyStatus: LoadStatus;
  accuracyHistoryError: ErrorInfo | null;
  performanceHistoryError: ErrorInfo | null;
  /** Result ids being deleted (rows show a spinner, buttons disable). */
  deletingResults: string[];
  loadHistory(): Promise<void>;
  deleteAccuracyResult(resultId: string): Promise<void>;
  deletePerformanceResult(resultId: string): Promise<void>;
  resetAccuracyResults(modelId?: string): Promise<void>;
  resetPerformanceResults(modelId?: string): Promise<void>;
  retryUpload(resultId: string): Promise<void>;
}

const newestFirst = <T extends { created_at: string }>(results: T[]): T[] =>
  [...results].sort((a, b) => b.created_at.localeCompare(a.created_at));

export const createBenchmarksSlice: SliceCreator<BenchmarksSlice> = (set, get, { client }) => {
  /** History changes move the catalog summaries, so the model rows' chips reload with it. */
  const afterChange = async () => {
    await Promise.all([get().loadHistory(), get().loadModels()]);
  };
  const deleting = (resultId: string, on: boolean) =>
    set({
      deletingResults: on
        ? [...get().deletingResults, resultId]
        : get().deletingResults.filter((id) => id !== resultId),
    });

  return {
    accuracyResults: [],
    performanceResults: [],
    historyStatus: "idle",
    accuracyHistoryError: null,
    performanceHistoryError: null,
    deletingResults: [],

    async loadHistory() {
      if (get().historyStatus === "idle") set({ historyStatus: "loading" });
      const [accuracy, performance] = await Promise.allSettled([
        client.request("listAccuracyResults", { query: {} }),
        client.request("listPerformanceResults", { query: {} }),
      ]);
      set({
        accuracyResults:
          accuracy.status === "fulfilled" ? newestFirst(accuracy.value.results) : get().accuracyResults,
        accuracyHistoryError: accuracy.status === "rejected" ? toErrorInfo(accuracy.reason) : null,
        performanceResults:
          performance.status === "fulfilled"
            ? newestFirst(performance.value.results)
            : get().performanceResults,
        performanceHistoryError: performance.status === "rejected" ? toErrorInfo(performance.reason) : null,
        historyStatus:
          accuracy.status === "rejected" && performance.status === "rejected" ? "error" : "ready",
      });
    },

    async deleteAccuracyResult(resultId) {
      deleting(resultId, true);
      try {
        await client.request("deleteAccuracyResult", { params: { result_id: resultId } });
        set({ accuracyResults: get().accuracyResults.filter((result) => result.result_id !== resultId) });
        await afterChange();
      } catch (error) {
        get().reportError(error);
      } finally {
        deleting(resultId, false);
      }
    },

    async deletePerformanceResult(resultId) {
      deleting(resultId, true);
      try {
        await client.request("deletePerformanceResult", { params: { result_id: resultId } });
        set({
          performanceResults: get().performanceResults.filter((result) => result.result_id !== resultId),
        });
        await afterChange();
      } catch (error) {
        get().reportError(error);
      } finally {
        deleting(resultId, false);
      }
    },

    async resetAccuracyResults(modelId) {
      try {
        const answer = await client.request("resetAccuracyResults", {
          body: modelId ? { model_id: modelId } : {},
        });
        get().notify({ kind: "success", key: "history.notice.reset", values: { count: answer.deleted } });
        await afterChange();
      } catch (error) {
        get().reportError(error);
      }
    },

    async resetPerformanceResults(modelId) {
      try {
        const answer = await client.request("resetPerformanceResults", {
          body: modelId ? { model_id: modelId } : {},
        });
        get().notify({ kind: "success", key: "history.notice.reset", values: { count: answer.deleted } });
        await afterChange();
      } catch (error) {
        get().reportError(error);
      }
    },

    async retryUpload(resultId) {
      try {
        const answer = await client.request("retryPerformanceUpload", { params: { result_id: resultId } });
        // Say how it went: the history's badge alone changed too quietly.
        if (answer.upload.state === "failed")
          get().notify({ kind: "error", key: "history.notice.uploadFailed", message: answer.upload.error });
        else get().notify({ kind: "success", key: `history.notice.upload.${answer.upload.state}` });
        await get().loadHistory();
      } catch (error) {
        get().reportError(error);
      }
    },
  };
};
