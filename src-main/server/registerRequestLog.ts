import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Logger } from "../core/createLogger.js";
import { usageOf } from "./requestUsage.js";

/** The model a request names: OpenAI/Anthropic/chat bodies carry `model`, admin routes an `id`. */
function modelOf(request: FastifyRequest): string | undefined {
  const body = request.body as { model?: unknown; model_id?: unknown } | undefined;
  if (body && typeof body === "object") {
    if (typeof body.model === "string") return body.model;
    if (typeof body.model_id === "string") return body.model_id;
  }
  const params = request.params as { id?: unknown } | undefined;
  return params && typeof params.id === "string" && request.url.includes("/models/") ? params.id : undefined;
}

/**
 * One line per HTTP request (method, route, model, status, duration, tokens): what a user reads in
 * `perch logs` or the app's log file to see who called Perch and what it cost. Never the prompt.
 * Successful admin and health reads (the dashboard's polling) are logged at debug level only.
 */
export function registerRequestLog(app: FastifyInstance, log: Logger): void {
  app.addHook("onResponse", async (request, reply) => {
    const usage = usageOf(request);
    const route = request.routeOptions.url ?? request.url.split("?")[0];
    // The dashboard polls health and stats every few seconds: those reads only at debug level.
    const polling = request.method === "GET" && reply.statusCode < 400 && !route.startsWith("/v1");
    log[polling ? "debug" : "info"](
      {
        method: request.method,
        route,
        model: modelOf(request),
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
        ...(usage ? { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens } : {}),
      },
      "request",
    );
  });
}
