import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  downloadRequestSchema,
  downloadRunIdSchema,
  repoFilesQuerySchema,
} from "../../../src-shared/contracts/catalog.js";
import type { DownloadManager } from "../../catalog/downloads/DownloadManager.js";
import { parseWith } from "../../base/parseWith.js";
import { streamRunEvents } from "../streamRunEvents.js";

const runParamsSchema = z.object({ run_id: downloadRunIdSchema }).strict();

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
  app.get("/admin/api/downloads/repo-files", async (request) => {
    const query = parseWith(repoFilesQuerySchema, request.query, "query");
    return downloads.repoFiles(query.source, query.repo, query.revision);
  });
  app.get("/admin/api/downloads", async () => ({ runs: downloads.list() }));
  app.post("/admin/api/downloads", async (request, reply) => {
    const run = await downloads.start(parseWith(downloadRequestSchema, request.body));
    return reply.status(202).send(run);
  });
  app.get("/admin/api/downloads/:run_id", async (request) =>
    downloads.get(parseWith(runParamsSchema, request.params, "params").run_id),
  );
  app.post("/admin/api/downloads/:run_id/cancel", async (request) =>
    downloads.cancel(parseWith(runParamsSchema, request.params, "params").run_id),
  );
  app.post("/admin/api/downloads/:run_id/resume", async (request, reply) => {
    const run = downloads.resume(parseWith(runParamsSchema, request.params, "params").run_id);
    return reply.status(202).send(run);
  });

  app.get("/admin/api/downloads/:run_id/stream", async (request, reply) => {
    const { run_id: runId } = parseWith(runParamsSchema, request.params, "params");
    await streamRunEvents(request, reply, (onEvent, onEnd) => downloads.subscribe(runId, onEvent, onEnd));
  });
}
