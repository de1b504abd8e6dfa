import { z } from "zod";
import {
  apiRoutes,
  apiStreams,
  type HttpMethod,
  type RouteName,
  type RouteSpec,
  type StreamName,
} from "./api.js";

/** Fills `:name` segments of a path template, each value encoded as one URL segment. */
export function buildPath(template: string, params: Record<string, unknown> | undefined): string {
  return template.replace(/:([a-z_]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter '${name}'`);
    return encodeURIComponent(String(value));
  });
}

/** `?a=1&b=x` from a flat query object (undefined values left out); empty string when none. */
export function buildQuery(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const pairs = Object.entries(query)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  return pairs.length > 0 ? `?${pairs.join("&")}` : "";
}

export interface ValidatedRequest {
  method: HttpMethod;
  /** Path and query string. */
  url: string;
  /** The validated body; undefined when the route has none. */
  body: unknown;
}

export type ValidationFailure = { where: "route" | "params" | "query" | "body"; issues: z.core.$ZodIssue[] };

const inputEnvelopeSchema = z
  .object({ params: z.unknown().optional(), query: z.unknown().optional(), body: z.unknown().optional() })
  .strict();

/**
 * Checks a route name and its input against the table and builds the request. Used by both
 * transports before sending and by the Electron IPC handler on every message it receives.
 */
export function validateRouteInput(
  name: unknown,
  input: unknown,
): { ok: true; value: ValidatedRequest } | { ok: false; failure: ValidationFailure; message: string } {
  if (typeof name !== "string" || !Object.hasOwn(apiRoutes, name)) {
    return fail("route", [], `Unknown route '${String(name)}'.`);
  }
  const spec: RouteSpec = apiRoutes[name as RouteName];
  const envelope = inputEnvelopeSchema.safeParse(input ?? {});
  if (!envelope.success) return fail("route", envelope.error.issues, "Input must be {params, query, body}.");
  const parts = ["params", "query", "body"] as const;
  const parsed: Record<(typeof parts)[number], unknown> = {
    params: undefined,
    query: undefined,
    body: undefined,
  };
  for (const part of parts) {
    const schema = spec[part];
    const value = envelope.data[part];
    if (!schema) {
      if (value !== undefined) return fail(part, [], `Route '${name}' takes no ${part}.`);
      continue;
    }
    const result = schema.safeParse(value);
    if (!result.success) {
      const first = result.error.issues[0];
      const at = first && first.path.length > 0 ? ` at '${first.path.map(String).join(".")}'` : "";
      return fail(part, result.error.issues, `Invalid ${part}${at}: ${first?.message ?? "invalid"}`);
    }
    parsed[part] = result.data;
  }
  const url =
    buildPath(spec.path, parsed.params as Record<string, unknown> | undefined) +
    buildQuery(parsed.query as Record<string, unknown> | undefined);
  return { ok: true, value: { method: spec.method, url, body: parsed.body } };
}

function fail(where: ValidationFailure["where"], issues: z.core.$ZodIssue[], message: string) {
  return { ok: false as const, failure: { where, issues }, message };
}

/** Checks a stream name and its params; answers the SSE path to open. */
export function validateStreamInput(
  name: unknown,
  params: unknown,
): { ok: true; path: string } | { ok: false; message: string } {
  if (typeof name !== "string" || !Object.hasOwn(apiStreams, name)) {
    return { ok: false, message: `Unknown stream '${String(name)}'.` };
  }
  const spec = apiStreams[name as StreamName];
  const result = spec.params.safeParse(params);
  if (!result.success)
    return { ok: false, message: `Invalid stream params: ${result.error.issues[0]?.message}` };
  return { ok: true, path: buildPath(spec.path, result.data) };
}
