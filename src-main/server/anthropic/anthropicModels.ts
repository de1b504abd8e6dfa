import type { FastifyRequest } from "fastify";
import { anthropicModelPageQuerySchema } from "../../../src-shared/contracts/anthropic.js";
import { PerchError } from "../../base/PerchError.js";
import { parseWith } from "../../base/parseWith.js";

/**
 * Whether a request comes from an Anthropic client: its SDKs send `anthropic-version` on every
 * call, so `GET /v1/models`, which both APIs share, answers such a client in Anthropic's shape.
 */
export function wantsAnthropicShape(request: FastifyRequest): boolean {
  return typeof request.headers["anthropic-version"] === "string";
}

/** A model as Anthropic's Models API describes one. */
export function toAnthropicModel(model: { id: string; created: number }) {
  return {
    type: "model" as const,
    id: model.id,
    display_name: model.id,
    created_at: new Date(model.created * 1000).toISOString(),
  };
}

/**
 * One page of Anthropic's model list (`limit`, `after_id` / `before_id` from the query), in the
 * list's order; `has_more` says whether models lie beyond it in the direction it was asked for.
 * An id not in the list is a 400 naming its parameter.
 */
export function toAnthropicModelList(models: { id: string; created: number }[], query: unknown = {}) {
  const {
    limit,
    after_id: afterId,
    before_id: beforeId,
  } = parseWith(anthropicModelPageQuerySchema, query, "query");
  const indexOf = (id: string, param: string) => {
    const index = models.findIndex((model) => model.id === id);
    if (index < 0)
      throw new PerchError("invalid_request", `No model '${id.slice(0, 256)}' to page from.`, { param });
    return index;
  };
  let start = 0;
  let end = Math.min(models.length, limit);
  let hasMore = end < models.length;
  if (afterId !== undefined) {
    start = indexOf(afterId, "after_id") + 1;
    end = Math.min(models.length, start + limit);
    hasMore = end < models.length;
  } else if (beforeId !== undefined) {
    end = indexOf(beforeId, "before_id");
    start = Math.max(0, end - limit);
    hasMore = start > 0;
  }
  const data = models.slice(start, end).map(toAnthropicModel);
  return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
