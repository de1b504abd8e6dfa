import { apiStreams } from "../../../src-shared/contracts/api.js";
import { buildPath } from "../../../src-shared/contracts/routeInput.js";
import type {
  DownloadEvent,
  DownloadRequest,
  DownloadRun,
  RemoteSource,
  RepoFilesResponse,
} from "../../../src-shared/contracts/catalog.js";
import { downloadEventSchema } from "../../../src-shared/contracts/catalog.js";
import type { Core } from "../../core/createCore.js";
import type { AdminClient } from "../client/AdminClient.js";

/** The download manager, in this process or behind a running server's admin API. */
export interface PullTarget {
  repoFiles(source: RemoteSource, repo: string, revision?: string): Promise<RepoFilesResponse>;
  start(request: DownloadRequest): Promise<DownloadRun>;
  /** Replays the run's events then follows them; resolves once the run has stopped or `signal` aborts. */
  follow(runId: string, onEvent: (event: DownloadEvent) => void, signal?: AbortSignal): Promise<void>;
  cancel(runId: string): Promise<void>;
}

export function serverPullTarget(server: AdminClient): PullTarget {
  return {
    repoFiles: (source, repo, revision) =>
      server.request("listRepoFiles", { query: { source, repo, ...(revision ? { revision } : {}) } }),
    start: (request) => server.request("startDownload", { body: request }),
    follow: (runId, onEvent, signal) =>
      server.stream(
        buildPath(apiStreams.download.path, { run_id: runId }),
        (data) => {
          const parsed = downloadEventSchema.safeParse(data);
          if (parsed.success) onEvent(parsed.data);
        },
        signal,
      ),
    cancel: async (runId) => void (await server.request("cancelDownload", { params: { run_id: runId } })),
  };
}

export function corePullTarget(core: Core): PullTarget {
  const downloads = core.downloads;
  return {
    repoFiles: (source, repo, revision) => downloads.repoFiles(source, repo, revision),
    start: (request) => downloads.start(request),
    follow: (runId, onEvent, signal) =>
      // The run's log ends after its completed, failed or cancelled event.
      new Promise((resolve) => {
        const unsubscribe = downloads.subscribe(runId, onEvent, resolve);
        signal?.addEventListener("abort", () => (unsubscribe(), resolve()), { once: true });
      }),
    cancel: async (runId) => void (await downloads.cancel(runId)),
  };
}
