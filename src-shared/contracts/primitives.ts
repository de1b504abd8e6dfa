import { z } from "zod";

/*
 * The small shapes every contract shares, spelled once: timestamps and the ids that travel in URL
 * segments and file names (letters, digits, `_` and `-` only, so they can never name a path).
 */

/** An ISO 8601 date-time with an offset (`2026-12-01T17:41:28.000Z`). */
export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** An ISO 8601 calendar day (`2026-12-01`). */
export const isoDaySchema = z.iso.date();

/** An id safe as one URL segment and one file name, up to `maxLength` characters. */
export const safeIdSchema = (maxLength = 64, message?: string) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{1,${maxLength}}$`), message);

/**
 * A tool's parameter schema: a JSON schema object whose `type`, if given, is `"object"`. A
 * tool's arguments are an object in every API (OpenAI's `arguments`, Anthropic's `input`,
 * Ollama's map); a schema for an array or a string once produced arguments clients cannot read.
 */
export const toolParametersSchema = z
  .record(z.string(), z.unknown())
  .refine(
    (schema) =>
      schema.type === "object" ||
      (schema.type === undefined &&
        !["enum", "const", "oneOf", "anyOf", "allOf", "not", "$ref"].some((key) => key in schema)),
    {
      message:
        'a tool\'s parameters must be an object schema ("type": "object"): its arguments are an object',
    },
  )
  // `{}` or properties without a type: an object (OpenAI reads them so), never "any value".
  .transform((schema) => (schema.type === undefined ? { ...schema, type: "object" } : schema));
