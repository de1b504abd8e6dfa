import type { FastifyInstance } from "fastify";
import type { DownloadManager } from "../../catalog/downloads/DownloadManager.js";
import { serveRoute, serveStream } from "../serveRoute.js";

/**
 * Model downloads: the repo picker, start, list, get, cancel, resume, and the progress stream
 * (`GET /admin/api/downloads/{run_id}/stream`, SSE `data: <DownloadEvent>` lines) which replays
 * the run so far to a late subscriber and ends when the run stops.
 */
export async function registerDownloadsRoutes(
  app: FastifyInstance,
  deps: { downloads: DownloadManager },
): Promise<void> {
  const { downloads } = deps;
  serveRoute(app, "listRepoFiles", ({ query }) =>
    downloads.repoFiles(query.source, query.repo, query.revision),
  );
  serveRoute(app, "listDownloads", () => ({ runs: downloads.list() }));
  serveRoute(app, "startDownload", async ({ body, reply }) => {
    const run = await downloads.start(body);
    reply.status(202);
    return run;
  });
  serveRoute(app, "getDownload", ({ params }) => downloads.get(params.run_id));
  serveRoute(app, "cancelDownload", ({ params }) => downloads.cancel(params.run_id));
  serveRoute(app, "resumeDownload", ({ params, reply }) => {
    const run = downloads.resume(params.run_id);
    reply.status(202);
    return run;
  });
  serveStream(app, "download", ({ run_id }, onEvent, onEnd) => downloads.subscribe(run_id, onEvent, onEnd));
}
