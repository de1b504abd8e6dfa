import type { GenerationRequest } from "../src-main/scheduler/GenerationRequest.js";

/** A greedy text request that runs to exactly `maxTokens` (end-of-generation ignored). */
export function benchRequest(
  requestId: string,
  modelId: string,
  text: string,
  maxTokens: number,
): GenerationRequest {
  return {
    requestId,
    modelId,
    prompt: { kind: "text", text },
    sampling: { temperature: 0 },
    maxTokens,
    ignoreEos: true,
  };
}
