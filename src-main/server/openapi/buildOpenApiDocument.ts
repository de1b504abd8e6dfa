import { z } from "zod";
import { apiErrorSchema } from "../../../src-shared/contracts/errors.js";

export interface RouteDoc {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Fastify-style path; `:name` params become `{name}`. */
  path: string;
  summary: string;
  body?: z.ZodType;
  response?: z.ZodType;
  /**
   * `true`: a `text/event-stream` route. `"ndjson"`: newline-delimited JSON by default (Ollama),
   * `response` with `stream: false`.
   */
  stream?: boolean | "ndjson";
  /** The error body. Defaults to Perch's `apiErrorSchema`. */
  error?: z.ZodType;
  /** Unknown body fields are dropped and named in the `x-perch-ignored-fields` response header. */
  namesIgnoredFields?: boolean;
  /** Errors carry Perch's stable code in `x-perch-error-code` (the error body has none: Ollama's). */
  errorCodeInHeader?: boolean;
}

const ignoredFieldsHeader = {
  "x-perch-ignored-fields": {
    description:
      "Request fields Perch did not use: unknown fields (as paths like `foo` or `messages[].refusal`) and " +
      "tool-schema constraints the arguments grammar cannot enforce. Absent when every field was used.",
    schema: { type: "string" },
  },
};

const errorCodeHeader = {
  "x-perch-error-code": {
    description:
      "Perch's stable error code (`src-shared/contracts/errors.ts`), on every error under `/api`: route errors, " +
      "401 without the API key, 413 over the body limit, 408 when the request took too long to arrive.",
    schema: { type: "string" },
  },
};

const toJsonSchema = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

/** An OpenAPI 3.1 document generated from the zod contracts (never written by hand). */
export function buildOpenApiDocument(routes: RouteDoc[], info: { version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const openApiPath = route.path.replace(/:([A-Za-z_]+)\*?/g, "{$1}").replace(/\*$/, "{path}");
    const parameters = [...openApiPath.matchAll(/\{([A-Za-z_]+)\}/g)].map((match) => ({
      name: match[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const json = {
      "application/json": { schema: route.response ? toJsonSchema(route.response, "output") : {} },
    };
    const okContent =
      route.stream === "ndjson"
        ? { ...json, "application/x-ndjson": { schema: { type: "string" } } }
        : route.stream
          ? { "text/event-stream": { schema: { type: "string" } } }
          : json;
    paths[openApiPath] ??= {};
    paths[openApiPath][route.method.toLowerCase()] = {
      summary: route.summary,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: toJsonSchema(route.body, "input") } },
            },
          }
        : {}),
      responses: {
        "200": {
          description: "OK",
          content: okContent,
          ...(route.namesIgnoredFields ? { headers: ignoredFieldsHeader } : {}),
        },
        "4XX": {
          description: "Invalid request",
          content: { "application/json": { schema: toJsonSchema(route.error ?? apiErrorSchema, "output") } },
          ...(route.errorCodeInHeader ? { headers: errorCodeHeader } : {}),
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Perch API",
      version: info.version,
      description: "OpenAI-, Anthropic- and Ollama-compatible inference plus Perch's admin API.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
      },
    },
    paths,
  };
}
