import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { parseWith } from "../../base/parseWith.js";
import { noteIgnoredFields } from "../ignoredFields.js";
import { ignoredOllamaFields } from "./ollamaGenerationFields.js";
import { parseKeepAlive } from "./parseKeepAlive.js";

/** An Ollama request schema: a zod object (possibly refined), whose keys are the fields routes read. */
type OllamaBodySchema = z.ZodType<Record<string, unknown>> & { shape: Record<string, unknown> };

export interface ParsedOllamaBody<Body> {
  body: Body;
  /** `keep_alive` in seconds (`parseKeepAlive`): `null` keeps the model loaded, `undefined` when absent. */
  keepAlive: number | null | undefined;
  /** The model the body names: `model`, else the older `name` (pull, delete, show), else `""`. */
  modelName: string;
}

/**
 * How every Ollama route reads its body: checked against its contract schema (a 400 naming the
 * field), the fields no route reads named in `x-perch-ignored-fields` and the request log (with
 * `alsoIgnored`, what the route leaves unused for its own reasons), and `keep_alive` parsed.
 */
export function parseOllamaBody<Schema extends OllamaBodySchema>(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: Schema,
  alsoIgnored: (body: z.infer<Schema>) => string[] = () => [],
): ParsedOllamaBody<z.infer<Schema>> {
  const body = parseWith(schema, withoutNulls(request.body));
  noteIgnoredFields(request, reply, [
    ...ignoredOllamaFields(body, Object.keys(schema.shape)),
    ...alsoIgnored(body),
  ]);
  const named = body as { model?: unknown; name?: unknown; keep_alive?: number | string };
  const modelName =
    typeof named.model === "string" ? named.model : typeof named.name === "string" ? named.name : "";
  return { body, keepAlive: parseKeepAlive(named.keep_alive), modelName };
}

/**
 * Ollama decodes JSON into Go structs, where `null` is the field's zero value: clients send
 * `"format": null`, `"options": {"stop": null}` or an assistant turn's `"content": null` for
 * "unset". The same here: `null` fields of the body, of `options` and of each message are left
 * out before the schema sees them. JSON schemas inside (`format`, tool parameters) are untouched:
 * `null` means something there.
 */
function withoutNulls(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  const top = dropNulls(body);
  if (isPlainObject(top.options)) top.options = dropNulls(top.options);
  if (Array.isArray(top.messages))
    top.messages = top.messages.map((message: unknown) =>
      isPlainObject(message) ? dropNulls(message) : message,
    );
  return top;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function dropNulls(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== null));
}
