import type { FastifyInstance } from "fastify";
import type { ResultListQuery } from "../../../src-shared/contracts/results.js";
import type { AccuracyResult } from "../../../src-shared/contracts/accuracy.js";
import type { PerformanceResult } from "../../../src-shared/contracts/performance.js";
import { serveRoute } from "../serveRoute.js";

/** The part of a `ResultStore` these routes use. */
interface Store<T> {
  list(filter?: { model_id?: string }): Promise<T[]>;
  get(resultId: string): Promise<T>;
  delete(resultId: string): Promise<void>;
  reset(filter?: { model_id?: string }): Promise<number>;
}

/** The core's result stores (the answers are the contract's full results). */
export interface ResultsRoutesDeps {
  accuracyResults: Store<AccuracyResult>;
  performanceResults: Store<PerformanceResult>;
  /**
   * The id behind a client's name for a model (an alias, `<id>:latest`), so `model_id` filters
   * find the results, which are stored under the model's id. Defaults to the name as given.
   */
  catalog?: { canonicalId(name: string): Promise<string> };
}

/**
 * Benchmark history: list, get, delete, reset, for performance (`/admin/api/bench/results`) and
 * accuracy (`/admin/api/bench/accuracy/results`). Malformed ids answer 400 `invalid_id`, unknown
 * ones 404 `result_not_found`.
 */
export async function registerResultsRoutes(app: FastifyInstance, deps: ResultsRoutesDeps): Promise<void> {
  const canonical = async (name: string | undefined) =>
    name === undefined || !deps.catalog ? name : deps.catalog.canonicalId(name);
  const list = async <T>(store: Store<T>, query: ResultListQuery): Promise<{ results: T[] }> => {
    const results = await store.list({ model_id: await canonical(query.model_id) });
    return { results: query.limit ? results.slice(0, query.limit) : results };
  };
  const performance = deps.performanceResults;
  serveRoute(app, "listPerformanceResults", ({ query }) => list(performance, query));
  serveRoute(
    app,
    "resetPerformanceResults",
    async ({ body }) => ({ deleted: await performance.reset({ model_id: await canonical(body?.model_id) }) }),
    // A reset without a body (or `null`) resets every result.
    { emptyBody: undefined },
  );
  serveRoute(app, "getPerformanceResult", ({ params }) => performance.get(params.result_id));
  serveRoute(app, "deletePerformanceResult", ({ params }) => remove(performance, params.result_id));

  const accuracy = deps.accuracyResults;
  serveRoute(app, "listAccuracyResults", ({ query }) => list(accuracy, query));
  serveRoute(
    app,
    "resetAccuracyResults",
    async ({ body }) => ({ deleted: await accuracy.reset({ model_id: await canonical(body?.model_id) }) }),
    // A reset without a body (or `null`) resets every result.
    { emptyBody: undefined },
  );
  serveRoute(app, "getAccuracyResult", ({ params }) => accuracy.get(params.result_id));
  serveRoute(app, "deleteAccuracyResult", ({ params }) => remove(accuracy, params.result_id));
}

async function remove<T>(store: Store<T>, resultId: string) {
  await store.delete(resultId);
  return { deleted: true as const, result_id: resultId };
}
