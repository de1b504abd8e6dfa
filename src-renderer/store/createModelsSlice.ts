import type {
  DownloadEvent,
  DownloadRequest,
  DownloadRun,
  RepoFilesResponse,
} from "../../src-shared/contracts/catalog.js";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { LoadStatus, SliceCreator } from "./PerchState.js";

export type ModelAction = "checking" | "saving" | "deleting" | "unloading";
export type HeaderAction = "reload" | "rescan" | "check";

export interface DownloadView {
  runId: string;
  repo: string;
  modelId: string | null;
  status: "running" | "verifying" | "completed" | "failed" | "cancelled";
  downloadedBytes: number;
  totalBytes: number;
  bytesPerSecond: number;
  error: string | null;
}

export interface ModelsSlice {
  models: ModelRow[];
  modelsDirs: string[];
  modelsStatus: LoadStatus;
  modelsError: ErrorInfo | null;
  modelBusy: Record<string, ModelAction>;
  headerBusy: HeaderAction | null;
  downloads: DownloadView[];
  repoFiles: { status: LoadStatus; listing: RepoFilesResponse | null; error: ErrorInfo | null };
  loadModels(): Promise<void>;
  reloadRuntime(): Promise<void>;
  rescanDisk(): Promise<void>;
  checkRemoteUpdates(): Promise<void>;
  checkUpdate(modelId: string): Promise<void>;
  /** Saves the complete settings; answers the error (with field paths) instead of throwing. */
  saveModelSettings(modelId: string, settings: ModelSettings): Promise<ErrorInfo | null>;
  deleteModel(modelId: string): Promise<void>;
  unloadModel(modelId: string): Promise<void>;
  browseRepo(source: DownloadRequest["source"], repo: string): Promise<void>;
  startDownload(request: DownloadRequest): Promise<void>;
  cancelDownload(runId: string): Promise<void>;
  resumeDownload(runId: string): Promise<void>;
  /** The server's downloads (also those started elsewhere); running ones are followed live. */
  loadDownloads(): Promise<void>;
}

function downloadView(run: DownloadRun): DownloadView {
  return {
    runId: run.run_id,
    repo: run.repo,
    modelId: run.model_id,
    status: run.status,
    downloadedBytes: run.downloaded_bytes,
    totalBytes: run.total_bytes,
    bytesPerSecond: 0,
    error: run.error?.message ?? null,
  };
}

export function applyDownloadEvent(view: DownloadView, event: DownloadEvent): DownloadView {
  switch (event.type) {
    case "started":
      return {
        ...view,
        modelId: event.model_id,
        totalBytes: event.total_bytes,
        downloadedBytes: event.resumed_from_bytes,
      };
    case "progress":
      return {
        ...view,
        status: "running",
        downloadedBytes: event.downloaded_bytes,
        totalBytes: event.total_bytes || view.totalBytes,
        bytesPerSecond: event.bytes_per_second,
      };
    case "verifying":
      return { ...view, status: "verifying" };
    case "file_completed":
      return view;
    case "completed":
      return { ...view, status: "completed", downloadedBytes: view.totalBytes, modelId: event.model_id };
    case "failed":
      return { ...view, status: "failed", error: event.error.message };
    case "cancelled":
      return { ...view, status: "cancelled" };
    default:
      return event satisfies never;
  }
}

export const createModelsSlice: SliceCreator<ModelsSlice> = (set, get, { client }) => {
  const setBusy = (modelId: string, action: ModelAction | null) => {
    const modelBusy = { ...get().modelBusy };
    if (action) modelBusy[modelId] = action;
    else delete modelBusy[modelId];
    set({ modelBusy });
  };
  const headerAction = async (action: HeaderAction, run: () => Promise<void>) => {
    set({ headerBusy: action });
    try {
      await run();
    } catch (error) {
      get().reportError(error);
    } finally {
      set({ headerBusy: null });
    }
  };
  const updateDownload = (runId: string, update: (view: DownloadView) => DownloadView) =>
    set({ downloads: get().downloads.map((view) => (view.runId === runId ? update(view) : view)) });
  const following = new Set<string>();
  /** Shows a download and follows its progress stream (replayed from the start). */
  const follow = (run: DownloadRun) => {
    set({ downloads: [downloadView(run), ...get().downloads.filter((other) => other.runId !== run.run_id)] });
    if (following.has(run.run_id)) return;
    following.add(run.run_id);
    client.subscribe(
      "download",
      { run_id: run.run_id },
      {
        onEvent: (event) => {
          updateDownload(run.run_id, (current) => applyDownloadEvent(current, event));
          if (event.type === "completed") void get().loadModels();
        },
        onError: (error) =>
          updateDownload(run.run_id, (current) => ({ ...current, status: "failed", error: error.message })),
        onEnd: () => following.delete(run.run_id),
      },
    );
  };

  return {
    models: [],
    modelsDirs: [],
    modelsStatus: "idle",
    modelsError: null,
    modelBusy: {},
    headerBusy: null,
    downloads: [],
    repoFiles: { status: "idle", listing: null, error: null },

    async loadModels() {
      if (get().modelsStatus === "idle") set({ modelsStatus: "loading" });
      try {
        const answer = await client.request("listModels");
        set({
          models: answer.models,
          modelsDirs: answer.models_dirs,
          modelsStatus: "ready",
          modelsError: null,
        });
      } catch (error) {
        const info = toErrorInfo(error);
        if (info.code === "unauthorized") set({ apiKeyNeeded: true });
        set({ modelsStatus: "error", modelsError: info });
      }
    },

    reloadRuntime: () =>
      headerAction("reload", async () => {
        const answer = await client.request("reload");
        get().notify({
          kind: "success",
          key: "models.notice.reloaded",
          values: { total: answer.total, unloaded: answer.unloaded.length },
        });
        await get().loadModels();
      }),

    rescanDisk: () =>
      headerAction("rescan", async () => {
        const answer = await client.request("rescan");
        get().notify({
          kind: "success",
          key: "models.notice.rescanned",
          values: { total: answer.total, added: answer.added.length, missing: answer.missing.length },
        });
        await get().loadModels();
      }),

    checkRemoteUpdates: () =>
      headerAction("check", async () => {
        const answer = await client.request("checkModelUpdates");
        // Local models are part of the answer as `not_applicable`; the notice counts remote ones.
        const remote = answer.results.filter((result) => result.update_status !== "not_applicable");
        const available = remote.filter((result) => result.update_status === "update_available").length;
        get().notify({
          kind: "success",
          key: "models.notice.checked",
          values: { checked: remote.length, available },
        });
        await get().loadModels();
      }),

    async checkUpdate(modelId) {
      setBusy(modelId, "checking");
      try {
        await client.request("checkModelUpdate", { params: { model_id: modelId } });
        await get().loadModels();
      } catch (error) {
        get().reportError(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async saveModelSettings(modelId, settings) {
      setBusy(modelId, "saving");
      try {
        await client.request("putModelSettings", { params: { model_id: modelId }, body: settings });
        await get().loadModels();
        get().notify({ kind: "success", key: "settings.saved" });
        return null;
      } catch (error) {
        return toErrorInfo(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async deleteModel(modelId) {
      setBusy(modelId, "deleting");
      try {
        await client.request("deleteModel", { params: { model_id: modelId } });
        get().notify({ kind: "success", key: "models.notice.deleted", values: { model: modelId } });
        await get().loadModels();
      } catch (error) {
        get().reportError(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async unloadModel(modelId) {
      setBusy(modelId, "unloading");
      try {
        await client.request("unloadModel", { params: { model_id: modelId } });
        await Promise.all([get().loadModels(), get().loadServer()]);
      } catch (error) {
        get().reportError(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async browseRepo(source, repo) {
      set({ repoFiles: { status: "loading", listing: null, error: null } });
      try {
        const listing = await client.request("listRepoFiles", { query: { source, repo } });
        set({ repoFiles: { status: "ready", listing, error: null } });
      } catch (error) {
        set({ repoFiles: { status: "error", listing: null, error: toErrorInfo(error) } });
      }
    },

    async startDownload(request) {
      try {
        follow(await client.request("startDownload", { body: request }));
      } catch (error) {
        get().reportError(error);
      }
    },

    async resumeDownload(runId) {
      try {
        follow(await client.request("resumeDownload", { params: { run_id: runId } }));
      } catch (error) {
        get().reportError(error);
      }
    },

    async loadDownloads() {
      try {
        const answer = await client.request("listDownloads");
        const known = new Set(get().downloads.map((view) => view.runId));
        for (const run of answer.runs) {
          if (run.status === "running") follow(run);
          else if (!known.has(run.run_id)) set({ downloads: [...get().downloads, downloadView(run)] });
        }
      } catch (error) {
        get().reportError(error);
      }
    },

    async cancelDownload(runId) {
      try {
        await client.request("cancelDownload", { params: { run_id: runId } });
      } catch (error) {
        get().reportError(error);
      }
    },
  };
};
