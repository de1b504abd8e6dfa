import type { FastifyInstance } from "fastify";
import { evalRunAddRequestSchema, evalRunParamsSchema } from "../../../src-shared/contracts/evalQueue.js";
import type { EvalQueue } from "../../evals/queue/EvalQueue.js";
import { parseWith } from "../../base/parseWith.js";
import { streamRunEvents } from "../streamRunEvents.js";

export interface EvalRouteDependencies {
  /** The server's eval run queue (one per core). */
  queue: Pick<EvalQueue, "add" | "list" | "get" | "remove" | "cancel" | "subscribe">;
}

/** Accuracy eval runs: the queue, cancellation and the progress stream (see `evalRuns.ts`). */
export async function registerEvalRoutes(app: FastifyInstance, deps: EvalRouteDependencies): Promise<void> {
  const { queue } = deps;
  const base = "/admin/api/bench/accuracy";

  app.post(`${base}/queue`, async (request, reply) => {
    const body = parseWith(evalRunAddRequestSchema, request.body ?? {});
    const summary = await queue.add(body);
    return reply.code(202).send(summary);
  });

  app.get(`${base}/queue`, async () => queue.list());

  app.delete(`${base}/queue/:run_id`, async (request) => {
    const { run_id } = parseWith(evalRunParamsSchema, request.params, "path");
    return queue.remove(run_id);
  });

  app.post(`${base}/:run_id/cancel`, async (request) => {
    const { run_id } = parseWith(evalRunParamsSchema, request.params, "path");
    return queue.cancel(run_id);
  });

  // Replays the run from its first event, so a page opened mid-run (or after it) draws it whole.
  app.get(`${base}/:run_id/stream`, async (request, reply) => {
    const { run_id } = parseWith(evalRunParamsSchema, request.params, "path");
    await streamRunEvents(request, reply, (onEvent, onEnd) => queue.subscribe(run_id, onEvent, onEnd));
  });
}
