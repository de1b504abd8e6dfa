import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Socket } from "node:net";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import fastifyStatic from "@fastify/static";
import { answerBodyTooLarge, wasAnsweredEarly } from "./answerBodyTooLarge.js";
import { registerRequestLog } from "./registerRequestLog.js";
import { logServerError } from "./logServerError.js";
import { decodeContentEncoding } from "./decodeContentEncoding.js";
import { requestIdHeader } from "./anthropic/addRequestId.js";
import { wantsAnthropicShape } from "./anthropic/anthropicModels.js";
import { answeredPath, isAnthropicClientOnSharedRoute, toErrorAnswer } from "./toErrorAnswer.js";
import { requestPathOn, trackSocketRequestPaths } from "./socketRequestPaths.js";
import { createLogger, type Logger } from "../base/createLogger.js";
import { PerchError } from "../base/PerchError.js";
import { dashboardMissingPage } from "./dashboardMissingPage.js";
import { InFlightGenerations } from "./InFlightGenerations.js";
import { registerSecurity, requestFace } from "./registerSecurity.js";

/** Largest accepted request body. Explicit so a 10 MB body answers 413, not a crash. */
export const maxBodyBytes = 4 * 1024 * 1024;

/** Time a client has to send a whole request (headers and body); the response may take longer. */
export const requestTimeoutMs = 60_000;

/**
 * Node looks for requests past their time every `connectionsCheckingInterval` (30 s by default),
 * which made the 60 s limit 60-90 s. A check every second (or a tenth of a shorter limit) keeps
 * the cut within a second of the limit; it walks only the open connections.
 */
function timeoutOptions(limitMs: number) {
  return {
    requestTimeout: limitMs,
    // Headers count against the same limit; Node requires headersTimeout <= requestTimeout.
    headersTimeout: limitMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limitMs / 10))),
  };
}

export interface ServerOptions {
  /** The base path's id, shown on `GET /health` for the CLI to recognise its server. Defaults to none. */
  instanceId?: string;
  apiKey?: string;
  allowRemoteAdmin: boolean;
  /** Built renderer folder, served as the web dashboard at `/`. */
  rendererDir?: string;
  /** Time a client has to send a whole request. Defaults to `requestTimeoutMs` (60 s). */
  requestTimeoutMs?: number;
  /**
   * Check every admin answer against the route table's response schema; a mismatch answers 500.
   * For tests. Defaults to `false`.
   */
  validateResponses?: boolean;
  /** Called for every route as it is registered (the route-table test lists them). Defaults to none. */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
  /** Where the one-line-per-request log goes. Defaults to the `http` module logger. */
  requestLog?: Logger;
  /** Registers the routes of every domain. */
  register: (app: FastifyInstance) => Promise<void> | void;
  /**
   * On close, how long generations being answered may run on before they are cut (each then ends
   * with `server_shutting_down` in its protocol). Defaults to `shutdownGraceMs` (2 s).
   */
  shutdownGraceMs?: number;
}

/** A shutdown's wait for generations to end on their own (a short reply usually does). */
const shutdownGraceMs = 2_000;
/** How long a cut answer has to write its ending before the connections are destroyed. */
const shutdownCutMs = 2_000;

/** Builds the HTTP server: error shape, body limits, auth, then each domain's routes. */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: maxBodyBytes,
    // Client ids and model ids may contain '/', so keep params as they come.
    routerOptions: { maxParamLength: 1024, ignoreTrailingSlash: true },
    return503OnClosing: false,
    // Closing destroys every connection: a socket a client opened and never used (browsers
    // preconnect) counts as busy until headersTimeout, which held shutdown for a minute.
    forceCloseConnections: true,
    requestTimeout: options.requestTimeoutMs ?? requestTimeoutMs,
    http: timeoutOptions(options.requestTimeoutMs ?? requestTimeoutMs),
    // URLs the router cannot decode, or path segments over maxParamLength: our error shape too.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === "FST_ERR_MAX_PARAM_LENGTH";
      const { status, body, headers } = toErrorAnswer(
        new PerchError("invalid_request", tooLong ? "A path segment is too long." : "The URL is malformed.", {
          status: tooLong ? 414 : 400,
        }),
        request.url.split("?")[0] ?? "",
      );
      void (reply as FastifyReply).status(status).headers(headers).send(body);
    },
    clientErrorHandler: answerClientError,
  });

  // JSON must be UTF-8 (RFC 8259): invalid bytes are refused instead of silently becoming U+FFFD.
  const parseJsonText = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  const parseUtf8Json = (
    request: FastifyRequest,
    body: string | Buffer,
    done: (error: Error | null, value?: unknown) => void,
  ) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(new PerchError("invalid_json", "The request body is not valid UTF-8."), undefined);
      return;
    }
    parseJsonText(request, text, done);
  };
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, parseUtf8Json);
  // A body with another content type, or none: the inference APIs read it as JSON, as Ollama and
  // llama-server do (`curl -d` sends urlencoded); they are open to every origin anyway. The admin
  // routes (and Ollama's pull and delete) take JSON only: a cross-site form cannot send it.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser("*", { parseAs: "buffer" }, (request, body, done) => {
    if (requestFace(request) === "open") return parseUtf8Json(request, body, done);
    done(new PerchError("unsupported_media_type", "Request bodies must be application/json."), undefined);
  });

  // Every route, every face: a compressed body is decompressed, an unknown coding refused (415).
  app.addHook("preParsing", async (request, _reply, payload) => decodeContentEncoding(request, payload));
  app.decorate("validateResponses", options.validateResponses ?? false);
  // Closing destroys every connection (above), so generations are drained first: each answer
  // ends in its protocol (its error event, or a 503) instead of a stream that just stops.
  const inFlight = new InFlightGenerations();
  app.decorate("inFlightGenerations", inFlight);
  app.addHook("preClose", async () => {
    await inFlight.drain({ graceMs: options.shutdownGraceMs ?? shutdownGraceMs, cutMs: shutdownCutMs });
  });
  const onRoute = options.onRoute;
  if (onRoute) app.addHook("onRoute", (route) => onRoute({ method: route.method, url: route.url }));
  // OpenAI's answers carry `x-request-id` (its SDK reads it as `_request_id`): every `/v1` answer
  // gets one, errors and streams included, and the request log names it. An Anthropic client
  // (`anthropic-version`) gets the same id as Anthropic's `request-id`, on the routes both APIs
  // share (`/v1/models`) too.
  app.addHook("onRequest", async (request, reply) => {
    if (!request.url.startsWith("/v1/")) return;
    const id = `req_${crypto.randomBytes(12).toString("hex")}`;
    reply.header("x-request-id", id);
    if (wantsAnthropicShape(request)) reply.header(requestIdHeader, id);
  });
  const logRequest = registerRequestLog(app, options.requestLog ?? requestLog);
  // Fastify's own logger is off: a 5xx's cause goes to Perch's log (`logServerError`).
  app.decorate("errorLog", options.requestLog ?? requestLog);
  trackSocketRequestPaths(app);
  // Ollama's routes answer their own errors; what reaches here for `/api` (a 413 while the body
  // still arrives) still takes Ollama's shape.
  app.setErrorHandler((error, request, reply) => {
    const path = answeredPath(request);
    const answer = toErrorAnswer(error, path, isAnthropicClientOnSharedRoute(request, path));
    if (answer.code === "body_too_large") {
      return answerBodyTooLarge(request, reply, answer, () => logRequest(request, reply, 413));
    }
    logServerError(request, reply, error, answer.status);
    void reply.status(answer.status).headers(answer.headers).send(answer.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "";
    const { status, body, headers } = toErrorAnswer(
      new PerchError("not_found", `No route for ${request.method} ${path}`),
      path,
      isAnthropicClientOnSharedRoute(request, path),
    );
    void reply.status(status).headers(headers).send(body);
  });

  await registerSecurity(app, { apiKey: options.apiKey, allowRemoteAdmin: options.allowRemoteAdmin });
  app.get("/health", async () => ({
    status: "ok",
    ...(options.instanceId ? { instance: options.instanceId } : {}),
  }));
  await options.register(app);

  const rendererDir = options.rendererDir;
  if (rendererDir && fs.existsSync(path.join(rendererDir, "index.html"))) {
    await app.register(fastifyStatic, {
      root: path.resolve(rendererDir),
      prefix: "/",
      index: "index.html",
      wildcard: false,
    });
  } else if (rendererDir) {
    app.get("/", async (_request, reply) =>
      reply.type("text/html; charset=utf-8").send(dashboardMissingPage()),
    );
  }
  return app;
}

const requestLog = createLogger("http");

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Requests the HTTP parser rejects before any route sees them (malformed request line, headers
 * too large, a request that took too long to arrive) still answer in the documented error shape.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // Still discarding the body of a request that got its 413: one answer per request.
  if (wasAnsweredEarly(socket)) {
    socket.destroy();
    return;
  }
  const status =
    error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const message =
    status === 431
      ? "The request headers are too large."
      : status === 408
        ? "The request took too long to arrive."
        : "The request is not valid HTTP.";
  // A request cut while its body arrived is known by its path (Ollama's shape under /api).
  const answer = toErrorAnswer(
    new PerchError("invalid_request", message, { status }),
    requestPathOn(socket) ?? "",
  );
  const body = JSON.stringify(answer.body);
  const extraHeaders = Object.entries(answer.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `${extraHeaders.join("")}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
