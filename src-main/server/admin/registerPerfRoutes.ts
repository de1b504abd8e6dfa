import type { FastifyInstance } from "fastify";
import { apiStreams } from "../../../src-shared/contracts/api.js";
import { buildPath } from "../../../src-shared/contracts/routeInput.js";
import { PerchError } from "../../base/PerchError.js";
import type { PerfService } from "../../perf/createPerfService.js";
import { serveRoute, serveStream } from "../serveRoute.js";

export interface PerfRouteDependencies {
  /** The core's performance service (`createPerfService`). */
  perf: Pick<PerfService, "runner" | "uploader" | "preview">;
}

/**
 * Performance benchmark runs (one at a time), their progress stream with replay, community
 * upload retries and the upload preview. Result listing/deletion are the catalog's routes.
 */
export async function registerPerfRoutes(app: FastifyInstance, deps: PerfRouteDependencies): Promise<void> {
  const { runner, uploader } = deps.perf;

  serveRoute(
    app,
    "startPerformanceRun",
    async ({ body, reply }) => {
      const run = await runner.start(body);
      reply.code(202);
      return {
        run_id: run.runId,
        stream_url: buildPath(apiStreams.performanceRun.path, { run_id: run.runId }),
      };
    },
    { emptyBody: {} },
  );
  serveRoute(app, "activePerformanceRun", () => ({ active: runner.active()?.info() ?? null }));
  serveRoute(app, "cancelPerformanceRun", ({ params }) => runner.cancel(params.run_id).info());

  // Replays the run from its first event, so a page opened mid-run (or after it) draws it whole.
  serveStream(app, "performanceRun", ({ run_id }, onEvent, onEnd) => {
    const run = runner.get(run_id);
    if (!run) throw new PerchError("run_not_found", `No performance run with id '${run_id}'.`);
    return run.subscribe(onEvent, onEnd);
  });

  serveRoute(app, "retryPerformanceUpload", async ({ params }) => {
    const result = await uploader.retry(params.result_id);
    return { result_id: result.result_id, upload: result.upload };
  });
  serveRoute(app, "uploadPreview", ({ query }) => deps.perf.preview(query));
}
