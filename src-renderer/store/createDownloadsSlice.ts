import type {
  DownloadEvent,
  DownloadRequest,
  DownloadRun,
  RepoFilesResponse,
} from "../../src-shared/contracts/catalog.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { LoadStatus, SliceCreator } from "./PerchState.js";

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

export interface DownloadsSlice {
  downloads: DownloadView[];
  repoFiles: { status: LoadStatus; listing: RepoFilesResponse | null; error: ErrorInfo | null };
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

/** Model downloads: browsing a repository's files, starting, following and cancelling downloads. */
export const createDownloadsSlice: SliceCreator<DownloadsSlice> = (set, get, { client }) => {
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
    downloads: [],
    repoFiles: { status: "idle", listing: null, error: null },

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
