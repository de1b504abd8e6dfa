import type { FastifyInstance } from "fastify";
import { embeddingRoutes } from "../../../src-shared/contracts/embeddings.js";
import { PerchError } from "../../base/PerchError.js";
import { toAnthropicModel, wantsAnthropicShape } from "../anthropic/anthropicModels.js";

export interface ModelRouteDeps {
  /** The models a client may name. */
  listModels: () => Promise<{ id: string; created: number }[]>;
  /** The id behind a client's name for a model (an alias, `<id>:latest`). Defaults to the name. */
  canonicalId?: (name: string) => Promise<string>;
}

/**
 * `GET /v1/models/{id}` (OpenAI). Model ids contain `/` (`org/repo/model-Q4_K_M`): the id is the
 * rest of the path, sent as is or as one `encodeURIComponent` segment (the `openai` SDK's way).
 */
export function registerModelRoute(app: FastifyInstance, deps: ModelRouteDeps): void {
  app.get(embeddingRoutes.getModel.path, async (request) => {
    const id = (request.params as { "*"?: string })["*"] ?? "";
    // A name every inference route takes (the alias) finds the model here too, under its id.
    const wanted = (await deps.canonicalId?.(id)) ?? id;
    const model = (await deps.listModels()).find((candidate) => candidate.id === wanted);
    if (!model) throw new PerchError("model_not_found", `Model '${id.slice(0, 512)}' not found.`);
    if (wantsAnthropicShape(request)) return toAnthropicModel(model);
    return { id: model.id, object: "model" as const, created: model.created, owned_by: "perch" };
  });
}
