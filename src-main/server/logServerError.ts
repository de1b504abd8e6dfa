import type { FastifyReply, FastifyRequest } from "fastify";
import { createLogger, type Logger } from "../base/createLogger.js";
import { PerchError } from "../base/PerchError.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Where answered 5xx errors are logged with their stack (`createServer`'s `requestLog`). */
    errorLog?: Logger;
  }
}

const fallbackLog = createLogger("http");
const logged = new WeakSet<object>();

/**
 * Logs an error a request is answered with when its status is 5xx (Perch's own failure, which
 * the client only sees as "Internal server error."): the error with its stack, the request id the
 * answer carried, method and route. Every place that answers an error calls it (the error
 * handlers, a stream's `fail`); an error is logged once however many of them see it.
 */
export function logServerError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
  status: number,
): void {
  // A shutdown's cut is not Perch failing: the request log has its line.
  if (status < 500 || (error instanceof PerchError && error.code === "server_shutting_down")) return;
  if (typeof error === "object" && error !== null) {
    if (logged.has(error)) return;
    logged.add(error);
  }
  const answered = reply.getHeader("request-id") ?? reply.getHeader("x-request-id");
  const log = request.server.errorLog ?? fallbackLog;
  log.error(
    {
      err: error,
      status,
      method: request.method,
      route: request.routeOptions.url ?? request.url.split("?")[0],
      request_id: typeof answered === "string" ? answered : request.id,
    },
    "request failed",
  );
}
