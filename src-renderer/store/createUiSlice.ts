import { apiKeyStorageKey } from "../client/createDefaultClient.js";
import type { SliceCreator } from "./PerchState.js";
import { toErrorInfo } from "./ErrorInfo.js";

export const pages = ["models", "chat", "benchmarks", "server", "settings"] as const;
export type Page = (typeof pages)[number];

export interface Toast {
  id: number;
  kind: "info" | "success" | "error";
  /** i18n key and its values, or a message from the server as is. */
  key?: string;
  values?: Record<string, string | number>;
  message?: string;
}

export interface UiSlice {
  page: Page;
  toasts: Toast[];
  settingsModelId: string | null;
  drilldownResultId: string | null;
  /** The drill-down's question filter: `all`, `failed`, or one failure type. */
  drilldownFilter: string;
  /** The model the benchmark forms are set to (the row's "Benchmark" action sets it). */
  benchmarkModelId: string | null;
  /** The server answered 401: the browser dashboard needs the API key. */
  apiKeyNeeded: boolean;
  setPage(page: Page): void;
  notify(toast: Omit<Toast, "id">): void;
  /** Turns any failure into an error toast (and notices a missing API key). */
  reportError(error: unknown, key?: string): void;
  dismissToast(id: number): void;
  openSettings(modelId: string): void;
  closeSettings(): void;
  /** Opens a result's questions, optionally filtered (the model row's chips open its failures). */
  openDrilldown(resultId: string, filter?: string): void;
  setDrilldownFilter(filter: string): void;
  closeDrilldown(): void;
  benchmarkModel(modelId: string): void;
  setBenchmarkModelId(modelId: string | null): void;
  saveApiKey(key: string): void;
}

let nextToastId = 0;

export const createUiSlice: SliceCreator<UiSlice> = (set, get, { storage }) => ({
  page: "models",
  toasts: [],
  settingsModelId: null,
  drilldownResultId: null,
  drilldownFilter: "all",
  benchmarkModelId: null,
  apiKeyNeeded: false,
  setPage: (page) => set({ page }),
  notify: (toast) => {
    nextToastId += 1;
    set({ toasts: [...get().toasts.slice(-4), { ...toast, id: nextToastId }] });
  },
  reportError: (error, key) => {
    const info = toErrorInfo(error);
    if (info.code === "unauthorized") set({ apiKeyNeeded: true });
    get().notify({ kind: "error", key, message: info.message });
  },
  dismissToast: (id) => set({ toasts: get().toasts.filter((toast) => toast.id !== id) }),
  openSettings: (modelId) => set({ settingsModelId: modelId }),
  closeSettings: () => set({ settingsModelId: null }),
  openDrilldown: (resultId, filter = "all") => set({ drilldownResultId: resultId, drilldownFilter: filter }),
  setDrilldownFilter: (filter) => set({ drilldownFilter: filter }),
  closeDrilldown: () => set({ drilldownResultId: null }),
  benchmarkModel: (modelId) => set({ benchmarkModelId: modelId, page: "benchmarks" }),
  setBenchmarkModelId: (modelId) => set({ benchmarkModelId: modelId }),
  saveApiKey: (key) => {
    if (key) storage.setItem(apiKeyStorageKey, key);
    else storage.removeItem(apiKeyStorageKey);
    set({ apiKeyNeeded: false });
    void get().loadModels();
    void get().loadHistory();
    void get().loadServer();
  },
});
