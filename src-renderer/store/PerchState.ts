import type { StoreApi } from "zustand/vanilla";
import type { PerchClient } from "../client/PerchClient.js";
import type { ChatSlice } from "./createChatSlice.js";
import type { CompareSlice } from "./createCompareSlice.js";
import type { BenchmarksSlice } from "./createBenchmarksSlice.js";
import type { DownloadsSlice } from "./createDownloadsSlice.js";
import type { ModelsSlice } from "./createModelsSlice.js";
import type { RunsSlice } from "./createRunsSlice.js";
import type { ServerSlice } from "./createServerSlice.js";
import type { UiSlice } from "./createUiSlice.js";
import type { UploadSlice } from "./createUploadSlice.js";

/** The whole dashboard state: one store made of slices, each with its actions at its root. */
export type PerchState = ModelsSlice &
  DownloadsSlice &
  ChatSlice &
  CompareSlice &
  BenchmarksSlice &
  RunsSlice &
  UploadSlice &
  ServerSlice &
  UiSlice;

export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SliceDependencies {
  client: PerchClient;
  storage: KeyValueStorage;
  now: () => number;
}

export type SliceCreator<T> = (
  set: StoreApi<PerchState>["setState"],
  get: StoreApi<PerchState>["getState"],
  dependencies: SliceDependencies,
) => T;

export type LoadStatus = "idle" | "loading" | "ready" | "error";
