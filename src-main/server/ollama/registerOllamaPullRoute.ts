import crypto from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { DownloadEvent, DownloadRun } from "../../../src-shared/contracts/catalog.js";
import type { ErrorCode } from "../../../src-shared/contracts/errors.js";
import { ollamaPullRequestSchema } from "../../../src-shared/contracts/ollama.js";
import { PerchError } from "../../base/PerchError.js";
import { pickDownload } from "../../catalog/downloads/pickDownload.js";
import { runningDownloadOf } from "../../catalog/downloads/runningDownloadOf.js";
import { NdjsonStream } from "./NdjsonStream.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { parseOllamaBody } from "./parseOllamaBody.js";
import { parseOllamaPullName } from "./parseOllamaPullName.js";

const terminal = new Set<DownloadEvent["type"]>(["completed", "failed", "cancelled"]);

/** The sha256 of a run's file as Ollama writes a layer digest. */
function digestOf(run: DownloadRun, file: string): string {
  const sha = run.files.find((candidate) => candidate.path === file)?.sha256;
  return `sha256:${sha ?? crypto.createHash("sha256").update(`${run.repo}/${file}`).digest("hex")}`;
}

/** Ollama's progress lines for one download event (none for some). */
function toProgress(run: DownloadRun, event: DownloadEvent): Record<string, unknown>[] {
  switch (event.type) {
    case "started": {
      const file = run.files[0]?.path ?? "";
      const digest = digestOf(run, file);
      return [
        {
          status: `pulling ${digest.slice(7, 19)}`,
          digest,
          total: event.total_bytes,
          completed: event.resumed_from_bytes,
        },
      ];
    }
    case "progress": {
      const digest = digestOf(run, event.file);
      return [
        {
          status: `pulling ${digest.slice(7, 19)}`,
          digest,
          total: event.total_bytes,
          completed: event.downloaded_bytes,
        },
      ];
    }
    case "verifying":
      return [{ status: "verifying sha256 digest" }];
    case "file_completed":
      return [];
    case "completed":
      return [{ status: "writing manifest" }, { status: "success" }];
    case "failed":
      return [{ error: event.error.message }];
    case "cancelled":
      return [{ error: "the download was cancelled" }];
    default:
      event satisfies never;
      return [];
  }
}

/**
 * `POST /api/pull`: `hf.co/owner/repo[:QUANT]` through Perch's download manager (resumable,
 * sha256-checked, into the first models folder), progress as Ollama's NDJSON lines
 * (`{status, digest, total, completed}` ... `{status: "success"}`), or one line with
 * `stream: false`. A client that goes away cancels the download it started; pulling again
 * resumes it. Pulling a model that is downloading follows that download (as Ollama does), and
 * going away then leaves it running for the client that started it.
 */
export function registerOllamaPullRoute(app: FastifyInstance, deps: OllamaRouteDeps): void {
  app.post("/pull", async (request, reply) => {
    const { body, modelName } = parseOllamaBody(request, reply, ollamaPullRequestSchema);
    const reference = parseOllamaPullName(modelName);
    const listing = await deps.downloads.repoFiles(reference.source, reference.repo);
    let run: DownloadRun;
    let following = false;
    try {
      run = await deps.downloads.start(pickDownload(reference, listing));
    } catch (error) {
      const running = runningDownloadOf(error);
      if (!running) throw error;
      run = deps.downloads.get(running);
      following = true;
    }
    if (body.stream === false) {
      const last = await new Promise<DownloadEvent>((resolve) => {
        const unsubscribe = deps.downloads.subscribe(run.run_id, (event) => {
          if (terminal.has(event.type)) queueMicrotask(() => (unsubscribe(), resolve(event)));
        });
      });
      if (last.type === "failed") throw new PerchError(last.error.code as ErrorCode, last.error.message);
      if (last.type === "cancelled") throw new PerchError("cancelled", "The download was cancelled.");
      return { status: "success" };
    }
    const stream = new NdjsonStream(request, reply);
    stream.send({ status: "pulling manifest" });
    await new Promise<void>((resolve) => {
      let finished = false;
      const unsubscribe = deps.downloads.subscribe(run.run_id, (event) => {
        for (const line of toProgress(run, event)) stream.send(line);
        if (terminal.has(event.type)) {
          finished = true;
          queueMicrotask(() => (unsubscribe(), resolve()));
        }
      });
      stream.signal.addEventListener("abort", () => {
        if (finished) return;
        unsubscribe();
        if (!following) deps.downloads.cancel(run.run_id).catch(() => undefined);
        resolve();
      });
    });
    stream.end();
  });
}
