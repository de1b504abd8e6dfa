import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "../base/createLogger.js";
import { ignoredFieldsOf } from "./ignoredFields.js";
import { isOllamaPath } from "./ollama/isOllamaPath.js";
import { usageOf } from "./requestUsage.js";

/** Longest model name a log line repeats: a client may send megabytes in `model`. */
const maxModelLength = 200;

/**
 * The model a request names: OpenAI/Anthropic/chat bodies carry `model`, admin routes `:model_id`,
 * Ollama's pull, delete and show the older `name` as well.
 */
function modelOf(request: FastifyRequest, route: string): string | undefined {
  const body = request.body as { model?: unknown; model_id?: unknown; name?: unknown } | undefined;
  const params = request.params as { model_id?: unknown } | undefined;
  const named =
    body && typeof body === "object" && typeof body.model === "string"
      ? body.model
      : body && typeof body === "object" && typeof body.model_id === "string"
        ? body.model_id
        : body && typeof body === "object" && typeof body.name === "string" && isOllamaPath(route)
          ? body.name
          : params && typeof params.model_id === "string"
            ? params.model_id
            : undefined;
  return named === undefined ? undefined : named.slice(0, maxModelLength);
}

/** Writes the log line of one answered request (for answers written outside Fastify's reply). */
export type LogRequest = (request: FastifyRequest, reply: FastifyReply, status: number) => void;

/**
 * One line per HTTP request (method, route, model, status, duration, tokens): what a user reads in
 * `perch logs` or the app's log file to see who called Perch and what it cost. Never the prompt.
 * Successful admin and health reads (the dashboard's polling) are logged at debug level only.
 * Returns the line writer for answers Fastify does not see end (a 413 written to the socket).
 */
export function registerRequestLog(app: FastifyInstance, log: Logger): LogRequest {
  const logged = new WeakSet<FastifyRequest>();
  const write = (request: FastifyRequest, reply: FastifyReply, status: number, clientClosed = false) => {
    if (logged.has(request)) return;
    logged.add(request);
    const usage = usageOf(request);
    // The id the answer carried (Anthropic's `request-id`, else OpenAI's `x-request-id`), so a
    // client's error report finds its line.
    const requestId = reply.getHeader("request-id") ?? reply.getHeader("x-request-id");
    const ignored = ignoredFieldsOf(request);
    const route = request.routeOptions.url ?? request.url.split("?")[0];
    // The dashboard polls health and stats every few seconds: those reads only at debug level.
    // Other apps' reads (`/v1/models`, Ollama's `/api/tags`) are who called Perch: info.
    const polling =
      request.method === "GET" && status < 400 && !route.startsWith("/v1") && !isOllamaPath(route);
    log[polling ? "debug" : "info"](
      {
        method: request.method,
        route,
        model: modelOf(request, route),
        status,
        duration_ms: Math.round(reply.elapsedTime),
        ...(usage ? { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens } : {}),
        ...(ignored ? { ignored_fields: ignored.slice(0, 50) } : {}),
        ...(typeof requestId === "string" ? { request_id: requestId } : {}),
        ...(clientClosed ? { client_closed: true } : {}),
      },
      "request",
    );
  };
  app.addHook("onResponse", async (request, reply) => write(request, reply, reply.statusCode));
  // A client that goes away before its answer ends (a stopped stream, a timeout) gets its line
  // too: the status it was being answered with, else 499 (nginx's "client closed request").
  app.addHook("onRequest", async (request, reply) => {
    reply.raw.once("close", () => {
      if (reply.raw.writableFinished) return;
      write(request, reply, reply.raw.headersSent ? reply.raw.statusCode : 499, true);
    });
  });
  return (request, reply, status) => write(request, reply, status);
}
