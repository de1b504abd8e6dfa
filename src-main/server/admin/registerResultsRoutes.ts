import type { FastifyInstance } from "fastify";
import {
  resultListQuerySchema,
  resultResetBodySchema,
  type AccuracyResultCore,
  type PerformanceResultCore,
} from "../../../src-shared/contracts/results.js";
import { parseWith } from "../../base/parseWith.js";
import { parseResultIdParam } from "./adminParams.js";

/** The part of a `ResultStore` these routes use (any store of a schema extending the core fits). */
interface Store<T> {
  list(filter?: { model_id?: string }): Promise<T[]>;
  get(resultId: string): Promise<T>;
  delete(resultId: string): Promise<void>;
  reset(filter?: { model_id?: string }): Promise<number>;
}

export interface ResultsRoutesDeps {
  accuracyResults: Store<AccuracyResultCore>;
  performanceResults: Store<PerformanceResultCore>;
}

/**
 * Benchmark history: list, get, delete, reset, for performance (`/admin/api/bench/results`) and
 * accuracy (`/admin/api/bench/accuracy/results`). Malformed ids answer 400 `invalid_id`, unknown
 * ones 404 `result_not_found`.
 */
export async function registerResultsRoutes(app: FastifyInstance, deps: ResultsRoutesDeps): Promise<void> {
  register(app, "/admin/api/bench/results", deps.performanceResults);
  register(app, "/admin/api/bench/accuracy/results", deps.accuracyResults);
}

function register<T extends { result_id: string }>(
  app: FastifyInstance,
  prefix: string,
  store: Store<T>,
): void {
  app.get(prefix, async (request) => {
    const query = parseWith(resultListQuerySchema, request.query, "query");
    const results = await store.list({ model_id: query.model_id });
    return { results: query.limit ? results.slice(0, query.limit) : results };
  });
  app.post(`${prefix}/reset`, async (request) => {
    const body = parseWith(resultResetBodySchema, request.body ?? undefined);
    return { deleted: await store.reset({ model_id: body?.model_id }) };
  });
  app.get(`${prefix}/:result_id`, async (request) => store.get(parseResultIdParam(request.params)));
  app.delete(`${prefix}/:result_id`, async (request) => {
    const resultId = parseResultIdParam(request.params);
    await store.delete(resultId);
    return { deleted: true as const, result_id: resultId };
  });
}
