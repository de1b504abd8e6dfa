import type { FastifyInstance } from "fastify";
import { embeddingRequestSchema, embeddingRoutes } from "../../../src-shared/contracts/embeddings.js";
import type { EmbeddingRequest, EmbeddingResult } from "../../scheduler/Scheduler.js";
import { abortOnDisconnect } from "../abortOnDisconnect.js";
import { parseWith } from "../../base/parseWith.js";
import { listDroppedFields, noteIgnoredFields } from "../ignoredFields.js";
import { noteUsage } from "../requestUsage.js";

export interface EmbeddingRouteDeps {
  embed: (request: EmbeddingRequest) => Promise<EmbeddingResult>;
}

/** `POST /v1/embeddings` (OpenAI): vectors scaled to length 1, as float lists or base64 float32. */
export function registerEmbeddingRoutes(app: FastifyInstance, deps: EmbeddingRouteDeps): void {
  app.post(embeddingRoutes.embeddings.path, async (request, reply) => {
    const body = parseWith(embeddingRequestSchema, request.body);
    noteIgnoredFields(request, reply, listDroppedFields(request.body, body));
    const inputs =
      typeof body.input === "string"
        ? [body.input]
        : body.input.every((item) => typeof item === "number")
          ? [body.input as number[]]
          : (body.input as (string | number[])[]);
    const result = await deps.embed({
      modelId: body.model,
      inputs,
      dimensions: body.dimensions,
      normalize: true,
      signal: abortOnDisconnect(reply),
    });
    noteUsage(request, { promptTokens: result.promptTokens, completionTokens: 0 });
    return {
      object: "list" as const,
      data: result.vectors.map((vector, index) => ({
        object: "embedding" as const,
        index,
        embedding: body.encoding_format === "base64" ? float32Base64(vector) : vector,
      })),
      model: body.model,
      usage: { prompt_tokens: result.promptTokens, total_tokens: result.promptTokens },
    };
  });
}

/** The vector as little-endian float32 bytes, base64 encoded (what the `openai` SDK decodes). */
export function float32Base64(vector: readonly number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString("base64");
}
