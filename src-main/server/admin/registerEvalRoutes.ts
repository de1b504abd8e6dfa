import type { FastifyInstance } from "fastify";
import type { EvalQueue } from "../../evals/queue/EvalQueue.js";
import { serveRoute, serveStream } from "../serveRoute.js";

export interface EvalRouteDependencies {
  /** The server's eval run queue (one per core). */
  queue: Pick<EvalQueue, "add" | "list" | "get" | "remove" | "cancel" | "subscribe">;
}

/** Accuracy eval runs: the queue, cancellation and the progress stream (see `evalRuns.ts`). */
export async function registerEvalRoutes(app: FastifyInstance, deps: EvalRouteDependencies): Promise<void> {
  const { queue } = deps;
  serveRoute(
    app,
    "queueAccuracyRun",
    async ({ body, reply }) => {
      const summary = await queue.add(body);
      reply.code(202);
      return summary;
    },
    { emptyBody: {} },
  );
  serveRoute(app, "listAccuracyQueue", () => queue.list());
  serveRoute(app, "removeAccuracyRun", ({ params }) => queue.remove(params.run_id));
  serveRoute(app, "cancelAccuracyRun", ({ params }) => queue.cancel(params.run_id));
  // Replays the run from its first event, so a page opened mid-run (or after it) draws it whole.
  serveStream(app, "accuracyRun", ({ run_id }, onEvent, onEnd) => queue.subscribe(run_id, onEvent, onEnd));
}
