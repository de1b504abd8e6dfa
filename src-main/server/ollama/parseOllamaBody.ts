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
  const body = parseWith(schema, request.body);
  noteIgnoredFields(request, reply, [
    ...ignoredOllamaFields(body, Object.keys(schema.shape)),
    ...alsoIgnored(body),
  ]);
  const named = body as { model?: unknown; name?: unknown; keep_alive?: number | string };
  const modelName =
    typeof named.model === "string" ? named.model : typeof named.name === "string" ? named.name : "";
  return { body, keepAlive: parseKeepAlive(named.keep_alive), modelName };
}
