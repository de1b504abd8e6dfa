import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  downloadRequestSchema,
  downloadRunIdSchema,
  repoFilesQuerySchema,
  type DownloadEvent,
} from "../../../src-shared/contracts/catalog.js";
import type { DownloadManager } from "../../catalog/downloads/DownloadManager.js";
import { parseWith } from "../../base/parseWith.js";

const runParamsSchema = z.object({ run_id: downloadRunIdSchema }).strict();
const terminal = new Set<DownloadEvent["type"]>(["completed", "failed", "cancelled"]);

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
    downloads.get(runId); // 404 before any SSE header goes out
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    let ended = false;
    let unsubscribe = () => {};
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      unsubscribe();
      raw.end();
    };
    // Comments keep proxies and idle timeouts from closing a quiet stream.
    const keepAlive = setInterval(() => raw.write(": keep-alive\n\n"), 15_000);
    keepAlive.unref();
    raw.on("close", end);
    let replaying = true;
    unsubscribe = downloads.subscribe(runId, (event) => {
      if (ended) return;
      raw.write(`data: ${JSON.stringify(event)}\n\n`);
      if (!replaying && terminal.has(event.type)) setImmediate(end);
    });
    replaying = false;
    // The replay may already hold the end of the story (a late subscriber to a finished run).
    if (downloads.get(runId).status !== "running") end();
  });
}
