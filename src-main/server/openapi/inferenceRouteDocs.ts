import {
  anthropicMessageResponseSchema,
  anthropicMessagesRequestSchema,
} from "../../../src-shared/contracts/anthropic.js";
import {
  chatCompletionRequestSchema,
  chatCompletionResponseSchema,
  completionRequestSchema,
  completionResponseSchema,
  modelListResponseSchema,
} from "../../../src-shared/contracts/openai.js";
import {
  embeddingRequestSchema,
  embeddingResponseSchema,
  modelObjectSchema,
} from "../../../src-shared/contracts/embeddings.js";
import type { RouteDoc } from "./buildOpenApiDocument.js";

/** The inference routes; `stream: true` in a body switches them to server-sent events. */
export const inferenceRouteDocs: RouteDoc[] = [
  {
    method: "GET",
    path: "/v1/models",
    summary: "List the models clients may name",
    response: modelListResponseSchema,
  },
  {
    method: "GET",
    path: "/v1/models/:model_id",
    summary: "One model (the id may hold '/', sent as is or percent-encoded)",
    response: modelObjectSchema,
  },
  {
    method: "POST",
    path: "/v1/embeddings",
    summary: "OpenAI embeddings (vectors of length 1; float or base64 float32)",
    body: embeddingRequestSchema,
    response: embeddingResponseSchema,
    namesIgnoredFields: true,
  },
  {
    method: "POST",
    path: "/v1/chat/completions",
    summary: "OpenAI chat completion with tool calling (SSE when stream is true)",
    body: chatCompletionRequestSchema,
    response: chatCompletionResponseSchema,
    namesIgnoredFields: true,
  },
  {
    method: "POST",
    path: "/v1/completions",
    summary: "OpenAI text completion (SSE when stream is true)",
    body: completionRequestSchema,
    response: completionResponseSchema,
    namesIgnoredFields: true,
  },
  {
    method: "POST",
    path: "/v1/messages",
    summary: "Anthropic Messages API with tool use (SSE events when stream is true)",
    body: anthropicMessagesRequestSchema,
    response: anthropicMessageResponseSchema,
    namesIgnoredFields: true,
  },
];
