import type { FastifyRequest } from "fastify";

/** Tokens a request's generation used, for its line in the request log. */
export interface RequestUsage {
  promptTokens: number;
  completionTokens: number;
}

const usageByRequest = new WeakMap<FastifyRequest, RequestUsage>();

/** Remembers what the request's generation used (the routes call it when a generation ends). */
export function noteUsage(request: FastifyRequest, usage: RequestUsage): void {
  usageByRequest.set(request, { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens });
}

/** What the request's generation used, when it had one. */
export function usageOf(request: FastifyRequest): RequestUsage | undefined {
  return usageByRequest.get(request);
}
