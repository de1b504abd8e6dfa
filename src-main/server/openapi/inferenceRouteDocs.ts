import { anthropicRoutes } from "../../../src-shared/contracts/anthropic.js";
import { embeddingRoutes } from "../../../src-shared/contracts/embeddings.js";
import { openAiRoutes } from "../../../src-shared/contracts/openai.js";
import { responseRoutes } from "../../../src-shared/contracts/openaiResponses.js";
import type { RouteDoc } from "./buildOpenApiDocument.js";

/** The inference routes, from their tables in the contracts; `stream: true` in a body switches them to SSE. */
export const inferenceRouteDocs: RouteDoc[] = [
  ...Object.values(openAiRoutes),
  ...Object.values(responseRoutes),
  ...Object.values(embeddingRoutes),
  ...Object.values(anthropicRoutes),
];
