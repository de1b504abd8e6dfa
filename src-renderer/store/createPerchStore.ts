import { createStore, type StoreApi } from "zustand/vanilla";
import { createChatSlice } from "./createChatSlice.js";
import { createCompareSlice } from "./createCompareSlice.js";
import { createBenchmarksSlice } from "./createBenchmarksSlice.js";
import { createDownloadsSlice } from "./createDownloadsSlice.js";
import { createModelsSlice } from "./createModelsSlice.js";
import { createRunsSlice } from "./createRunsSlice.js";
import { createServerSlice } from "./createServerSlice.js";
import { createUiSlice } from "./createUiSlice.js";
import { createUploadSlice } from "./createUploadSlice.js";
import type { PerchState, SliceDependencies } from "./PerchState.js";

export type PerchStore = StoreApi<PerchState>;

/** The dashboard's one store, built from its slices over a client (real or fake). */
export function createPerchStore(dependencies: SliceDependencies): PerchStore {
  return createStore<PerchState>()((set, get) => ({
    ...createModelsSlice(set, get, dependencies),
    ...createDownloadsSlice(set, get, dependencies),
    ...createBenchmarksSlice(set, get, dependencies),
    ...createRunsSlice(set, get, dependencies),
    ...createUploadSlice(set, get, dependencies),
    ...createServerSlice(set, get, dependencies),
    ...createUiSlice(set, get, dependencies),
    ...createChatSlice(set, get, dependencies),
    ...createCompareSlice(set, get, dependencies),
  }));
}
