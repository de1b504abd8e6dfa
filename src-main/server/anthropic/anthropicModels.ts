import type { FastifyRequest } from "fastify";

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

/** Anthropic's model list: one page holding every model. */
export function toAnthropicModelList(models: { id: string; created: number }[]) {
  const data = models.map(toAnthropicModel);
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}
