import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import {
  apiRoutes,
  apiStreams,
  type ApiRoutes,
  type RouteName,
  type RouteSpec,
  type StreamEvent,
  type StreamName,
  type ApiStreams,
} from "../../src-shared/contracts/api.js";
import { PerchError } from "../base/PerchError.js";
import { parseWith } from "../base/parseWith.js";
import { streamRunEvents, type SubscribeRun } from "./streamRunEvents.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Check every admin answer against its response schema (`createServer`'s `validateResponses`). */
    validateResponses: boolean;
  }
}

type Parsed<R, K extends "params" | "query" | "body"> = R extends { [P in K]: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** What a handler gets: the request's params, query and body parsed with the table's schemas. */
export interface RouteRequest<N extends RouteName> {
  params: Parsed<ApiRoutes[N], "params">;
  query: Parsed<ApiRoutes[N], "query">;
  body: Parsed<ApiRoutes[N], "body">;
  request: FastifyRequest;
  /** For a status other than 200 (`reply.code(202)`) before returning the answer. */
  reply: FastifyReply;
}

/** A route's handler: answers what the table's response schema describes. */
export type RouteHandler<N extends RouteName> = (
  input: RouteRequest<N>,
) => Promise<z.input<ApiRoutes[N]["response"]>> | z.input<ApiRoutes[N]["response"]>;

export interface ServeRouteOptions {
  /**
   * The body a request without one (or with `null`) stands for, on routes whose every field is
   * optional (`{}`). Defaults to none: a missing body is validated as it is.
   */
  emptyBody?: unknown;
}

/** Path ids that name files: a malformed one is `invalid_id`, as the stores answer for them. */
const fileIds = new Set(["model_id", "result_id", "conversation_id"]);

function parseParams(schema: z.ZodType, params: unknown): unknown {
  const checked = schema.safeParse(params);
  if (checked.success) return checked.data;
  const name = String(checked.error.issues[0]?.path[0] ?? "");
  if (fileIds.has(name)) {
    throw new PerchError(
      "invalid_id",
      `Invalid ${name}: ${checked.error.issues[0]?.message ?? "malformed"}.`,
      {
        param: name,
      },
    );
  }
  return parseWith(schema, params, "path");
}

/**
 * Serves one route of the admin table (`apiRoutes` in the API contract) at its method and path:
 * params, query and body are parsed with the table's schemas (a bad one answers 400 before the
 * handler runs), and the answer is typed by its response schema — and checked against it where
 * the server validates responses (the tests), so the table, the client and the server agree.
 */
export function serveRoute<N extends RouteName>(
  app: FastifyInstance,
  name: N,
  handler: RouteHandler<N>,
  options: ServeRouteOptions = {},
): void {
  const spec: RouteSpec = apiRoutes[name];
  app.route({
    method: spec.method,
    url: spec.path,
    handler: async (request, reply) => {
      const rawBody =
        "emptyBody" in options && (request.body === undefined || request.body === null)
          ? options.emptyBody
          : request.body;
      const input = {
        params: spec.params ? parseParams(spec.params, request.params) : undefined,
        query: spec.query ? parseWith(spec.query, request.query, "query") : undefined,
        body: spec.body ? parseWith(spec.body, rawBody) : undefined,
        request,
        reply,
      } as RouteRequest<N>;
      const answer = await handler(input);
      if (app.validateResponses) {
        const checked = spec.response.safeParse(answer);
        if (!checked.success) {
          const issue = checked.error.issues[0];
          throw new Error(
            `The answer of ${name} does not match its response schema at '${issue?.path.join(".")}': ${issue?.message}`,
          );
        }
      }
      return answer;
    },
  });
}

/**
 * Serves one progress stream of the table (`apiStreams`) at its path over SSE (`streamRunEvents`):
 * the params are parsed with the table's schema, then the run is subscribed to.
 */
export function serveStream<S extends StreamName>(
  app: FastifyInstance,
  name: S,
  subscribe: (
    params: z.output<ApiStreams[S]["params"]>,
    ...listeners: Parameters<SubscribeRun<StreamEvent<S>>>
  ) => () => void,
): void {
  const spec = apiStreams[name];
  app.get(spec.path, async (request, reply) => {
    const params = parseParams(spec.params, request.params) as z.output<ApiStreams[S]["params"]>;
    await streamRunEvents<StreamEvent<S>>(request, reply, (onEvent, onEnd) =>
      subscribe(params, onEvent, onEnd),
    );
  });
}
