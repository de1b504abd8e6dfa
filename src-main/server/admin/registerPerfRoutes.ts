import type { FastifyInstance } from "fastify";
import {
  perfResultParamsSchema,
  perfRunParamsSchema,
  perfRunRequestSchema,
  uploadPreviewQuerySchema,
  type PerfActiveResponse,
  type PerfStartResponse,
} from "../../../src-shared/contracts/performance.js";
import { PerchError } from "../../base/PerchError.js";
import type { PerfService } from "../../perf/createPerfService.js";
import { parseWith } from "../../base/parseWith.js";
import { streamRunEvents } from "../streamRunEvents.js";

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
  const base = "/admin/api/bench";

  app.post(`${base}/start`, async (request, reply) => {
    const body = parseWith(perfRunRequestSchema, request.body ?? {});
    const run = await runner.start(body);
    const response: PerfStartResponse = { run_id: run.runId, stream_url: `${base}/${run.runId}/stream` };
    return reply.code(202).send(response);
  });

  app.get(`${base}/active`, async (): Promise<PerfActiveResponse> => ({
    active: runner.active()?.info() ?? null,
  }));

  app.post(`${base}/:run_id/cancel`, async (request) => {
    const { run_id } = parseWith(perfRunParamsSchema, request.params, "path");
    return runner.cancel(run_id).info();
  });

  // Replays the run from its first event, so a page opened mid-run (or after it) draws it whole.
  app.get(`${base}/:run_id/stream`, async (request, reply) => {
    const { run_id } = parseWith(perfRunParamsSchema, request.params, "path");
    await streamRunEvents(request, reply, (onEvent, onEnd) => {
      const run = runner.get(run_id);
      if (!run) throw new PerchError("run_not_found", `No performance run with id '${run_id}'.`);
      return run.subscribe(onEvent, onEnd);
    });
  });

  app.post(`${base}/results/:result_id/upload`, async (request) => {
    const { result_id } = parseWith(perfResultParamsSchema, request.params, "path");
    const result = await uploader.retry(result_id);
    return { result_id: result.result_id, upload: result.upload };
  });

  app.get(`${base}/upload/preview`, async (request) => {
    const query = parseWith(uploadPreviewQuerySchema, request.query, "query");
    return deps.perf.preview(query);
  });
}
