import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  ollamaEmbedRequestSchema,
  ollamaEmbeddingsRequestSchema,
} from "../../../src-shared/contracts/ollama.js";
import type { EmbeddingRequest, EmbeddingResult } from "../../scheduler/Scheduler.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { noteUsage } from "../requestUsage.js";
import type { OllamaRouteDeps } from "./OllamaRouteDeps.js";
import { parseOllamaBody, type ParsedOllamaBody } from "./parseOllamaBody.js";
import { resolveOllamaModel } from "./resolveOllamaModel.js";

/**
 * `POST /api/embed` (batched, normalized, `truncate` and `dimensions` honoured) and the legacy
 * `POST /api/embeddings` (one prompt, one vector as the model gives it): one handler, two shapes.
 */
export function registerOllamaEmbedRoutes(app: FastifyInstance, deps: OllamaRouteDeps): void {
  app.post("/embed", async (request, reply) => {
    const started = performance.now();
    const parsed = parseOllamaBody(request, reply, ollamaEmbedRequestSchema);
    const { body } = parsed;
    const result = await embed(request, reply, deps, parsed, {
      inputs: typeof body.input !== "string" ? body.input : body.input === "" ? [] : [body.input],
      truncate: body.truncate ?? true,
      dimensions: body.dimensions,
      normalize: true,
    });
    return {
      model: body.model,
      embeddings: result.vectors,
      total_duration: Math.round((performance.now() - started) * 1e6),
      load_duration: 0,
      prompt_eval_count: result.promptTokens,
    };
  });

  app.post("/embeddings", async (request, reply) => {
    const parsed = parseOllamaBody(request, reply, ollamaEmbeddingsRequestSchema);
    const result = await embed(request, reply, deps, parsed, {
      inputs: [parsed.body.prompt],
      truncate: true,
    });
    return { embedding: result.vectors[0] ?? [] };
  });
}

/** What both routes do once the body is read: resolve the model, embed, apply `keep_alive`, note usage. */
async function embed(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: OllamaRouteDeps,
  { keepAlive, modelName }: ParsedOllamaBody<unknown>,
  options: Omit<EmbeddingRequest, "modelId" | "signal">,
): Promise<EmbeddingResult> {
  const modelId = await resolveOllamaModel(deps, modelName);
  const result = await deps.embed({ modelId, ...options, signal: abortOnDisconnect(reply) });
  if (keepAlive !== undefined) deps.engine.keepAlive(modelId, keepAlive);
  noteUsage(request, { promptTokens: result.promptTokens, completionTokens: 0 });
  return result;
}
