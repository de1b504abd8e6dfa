import type { FastifyReply, FastifyRequest } from "fastify";

/** Response header naming the request fields Perch did not use (comma-separated paths). */
export const ignoredFieldsHeader = "x-perch-ignored-fields";

/** Longest header value sent: a client may send thousands of unknown fields. */
const maxHeaderLength = 2000;

const ignoredByRequest = new WeakMap<FastifyRequest, string[]>();

/**
 * The fields of `input` that parsing dropped (unknown to the contract), as paths like `foo` or
 * `messages[].refusal`; array indices collapse to `[]` so a field repeated in every message is
 * named once.
 */
export function listDroppedFields(input: unknown, parsed: unknown, path = ""): string[] {
  const found = new Set<string>();
  walk(input, parsed, path, found);
  return [...found];
}

function walk(input: unknown, parsed: unknown, path: string, found: Set<string>): void {
  if (Array.isArray(input) && Array.isArray(parsed)) {
    input.forEach((item, index) => walk(item, parsed[index], `${path}[]`, found));
    return;
  }
  if (!isObject(input) || !isObject(parsed)) return;
  for (const [key, value] of Object.entries(input)) {
    const at = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(parsed, key)) found.add(at);
    else walk(value, parsed[key], at, found);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Names the ignored fields in the response header (also on streams: `SseStream` copies it) and
 * keeps them for the request log.
 */
export function noteIgnoredFields(request: FastifyRequest, reply: FastifyReply, fields: string[]): void {
  if (fields.length === 0) return;
  ignoredByRequest.set(request, fields);
  let value = "";
  for (const field of fields) {
    const next = value ? `${value}, ${field}` : field;
    if (next.length > maxHeaderLength) break;
    value = next;
  }
  // Header values must be printable ASCII: other characters are percent-escaped.
  reply.header(
    ignoredFieldsHeader,
    value.replace(/[^\x20-\x7e]/gu, (character) => encodeURIComponent(character)),
  );
}

/** The fields the request's handler ignored, for its request-log line. */
export function ignoredFieldsOf(request: FastifyRequest): string[] | undefined {
  return ignoredByRequest.get(request);
}
