import type { GbnfJsonSchema } from "node-llama-cpp";

/** Keywords that only annotate: dropping them changes nothing about valid arguments. */
const annotations = new Set([
  "title",
  "default",
  "examples",
  "example",
  "$schema",
  "$id",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "strict",
]);

/** Keywords the grammar enforces (node-llama-cpp's JSON-schema grammar). */
const enforced = new Set([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "enum",
  "const",
  "oneOf",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  "minLength",
  "maxLength",
  "format",
  "nullable",
]);

const grammarFormats = new Set(["date-time", "time", "date"]);
const scalarTypes = new Set(["string", "number", "integer", "boolean", "null"]);
const knownTypes = new Set([...scalarTypes, "object", "array"]);

export interface FunctionSchema {
  schema: GbnfJsonSchema;
  /**
   * Paths (relative to the schema root, e.g. `properties.limit.minimum`) of constraints the
   * grammar cannot enforce: generated arguments have the right shape and types but may not meet
   * them. Reported to the client as ignored fields, never dropped silently.
   */
  unenforced: string[];
}

/**
 * A client's JSON schema in the dialect node-llama-cpp turns into a grammar: `anyOf` becomes
 * `oneOf`, `definitions` become `$defs`, `nullable` (OpenAPI) and type lists become unions, an
 * object without properties accepts any members, a schema without a type accepts any value.
 * Annotations are dropped; constraints the grammar cannot enforce are listed in `unenforced`.
 */
export function toFunctionSchema(schema: unknown): FunctionSchema {
  const unenforced: string[] = [];
  return { schema: convert(schema, "", unenforced) as GbnfJsonSchema, unenforced };
}

/**
 * `toFunctionSchema(schema).unenforced` as request paths under `at` (e.g.
 * `tools[0].function.parameters`), for `x-perch-ignored-fields`. None for a schema that cannot be
 * read at all: that one is refused, with its reason, when the model's grammar is built.
 */
export function unenforcedSchemaPaths(schema: unknown, at: string): string[] {
  try {
    return toFunctionSchema(schema).unenforced.map((path) => `${at}.${path}`);
  } catch {
    return [];
  }
}

const anyValue = {
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "object", additionalProperties: true },
    { type: "array" },
  ],
};

function convert(input: unknown, path: string, unenforced: string[]): unknown {
  if (input === true || input === undefined) return anyValue;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new TypeError(`${path || "the schema"} must be a JSON schema object`);
  }
  const source = input as Record<string, unknown>;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (annotations.has(key)) continue;
    if (!enforced.has(key)) {
      unenforced.push(at(key));
      continue;
    }
    switch (key) {
      case "properties": {
        const properties: Record<string, unknown> = {};
        for (const [name, property] of Object.entries(asObject(value, at(key))))
          properties[name] = convert(property, `${at(key)}.${name}`, unenforced);
        out.properties = properties;
        break;
      }
      case "items":
        out.items = convert(value, at(key), unenforced);
        break;
      case "additionalProperties":
        out.additionalProperties = typeof value === "boolean" ? value : convert(value, at(key), unenforced);
        break;
      case "prefixItems":
      case "oneOf":
      case "anyOf":
        out[key === "anyOf" ? "oneOf" : key] = asArray(value, at(key)).map((item, index) =>
          convert(item, `${at(key)}.${index}`, unenforced),
        );
        break;
      case "$defs":
      case "definitions": {
        const defs: Record<string, unknown> = {};
        for (const [name, definition] of Object.entries(asObject(value, at(key))))
          defs[name] = convert(definition, `${at(key)}.${name}`, unenforced);
        out.$defs = { ...(out.$defs as object | undefined), ...defs };
        break;
      }
      case "$ref":
        out.$ref = String(value).replace(/^#\/definitions\//, "#/$defs/");
        break;
      case "format":
        if (typeof value === "string" && grammarFormats.has(value)) out.format = value;
        else unenforced.push(at(key));
        break;
      case "nullable":
        break;
      case "type":
        // node-llama-cpp reads a type it does not know as `null`: refuse it instead.
        for (const type of Array.isArray(value) ? value : [value]) {
          if (!knownTypes.has(String(type)))
            throw new TypeError(`${at(key)} '${String(type)}' is not a JSON schema type`);
        }
        out.type = value;
        break;
      default:
        out[key] = value;
    }
  }
  return normalizeType(out, source.nullable === true);
}

/** Type lists, `nullable` and typeless schemas become `oneOf` unions (each branch keeps its keywords). */
function normalizeType(schema: Record<string, unknown>, nullable: boolean): unknown {
  const { type } = schema;
  const hasShape = ["enum", "const", "oneOf", "$ref"].some((key) => key in schema);
  let result: Record<string, unknown> = schema;
  if (type === undefined && !hasShape) {
    if ("properties" in schema || "additionalProperties" in schema) result = { ...schema, type: "object" };
    else if ("items" in schema || "prefixItems" in schema) result = { ...schema, type: "array" };
    else result = { ...anyValue, ...(schema.description ? { description: schema.description } : {}) };
  } else if (Array.isArray(type) && type.length > 1) {
    // A list keeps the grammar from applying string/array/object keywords: one branch per type.
    const { type: _type, description, ...rest } = schema;
    result = {
      ...(description ? { description } : {}),
      oneOf: type.map((item) => normalizeType(keywordsFor(String(item), rest), false)),
    };
  } else if (Array.isArray(type) && type.length === 1) {
    result = normalizeType({ ...schema, type: type[0] }, false) as Record<string, unknown>;
  }
  if (result.type === "object" && !("properties" in result) && !("additionalProperties" in result))
    result = { ...result, additionalProperties: true };
  if (!nullable) return result;
  return { oneOf: [result, { type: "null" }] };
}

const keywordsByType: Record<string, readonly string[]> = {
  string: ["minLength", "maxLength", "format"],
  array: ["items", "prefixItems", "minItems", "maxItems"],
  object: ["properties", "required", "additionalProperties", "minProperties", "maxProperties"],
};

/** The keywords of a multi-type schema that apply to one of its types. */
function keywordsFor(type: string, keywords: Record<string, unknown>): Record<string, unknown> {
  const branch: Record<string, unknown> = { type };
  for (const key of keywordsByType[type] ?? []) if (key in keywords) branch[key] = keywords[key];
  if ("$defs" in keywords) branch.$defs = keywords.$defs;
  return branch;
}

function asObject(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new TypeError(`${path} must be an object`);
  return value as Record<string, unknown>;
}

function asArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new TypeError(`${path} must be an array`);
  return value;
}
