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
  return { schema: convert(withLocalRefs(schema), "", unenforced) as GbnfJsonSchema, unenforced };
}

/**
 * The schema with every `$ref` pointing at a definition: node-llama-cpp resolves only
 * `#/$defs/<name>` (anything else became "any value", silently), so `#` (the root: what zod's
 * `toJSONSchema` writes for a recursive schema) and other JSON pointers into the schema
 * (`#/properties/a`) get a generated definition each. A reference that points nowhere, or
 * outside the schema, is refused.
 */
function withLocalRefs(root: unknown): unknown {
  if (typeof root !== "object" || root === null || Array.isArray(root)) return root;
  const source = root as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const definitionNamed = (ref: string) => {
    // A name written with escapes (`a~1b`, `p%25q`) goes through a generated definition:
    // node-llama-cpp looks the name up as written.
    const named = /^#\/(\$defs|definitions)\/([^/~%]+)$/.exec(ref);
    if (!named) return undefined;
    const defs = source[named[1]!];
    const name = decodePointerToken(named[2]!);
    return typeof defs === "object" && defs !== null && name in defs ? ref : null;
  };
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== "$ref" || typeof value !== "string") {
        // `enum` and `const` hold values, not schemas: never rewritten.
        out[key] = key === "enum" || key === "const" ? value : walk(value);
        continue;
      }
      const named = definitionNamed(value);
      if (named) {
        out.$ref = named;
        continue;
      }
      if (named === null) throw new TypeError(`$ref '${value}' names no definition of the schema`);
      if (value !== "#" && !value.startsWith("#/"))
        throw new TypeError(
          `$ref '${value}' points outside the schema: only references into it are supported`,
        );
      let name = names.get(value);
      if (!name) {
        name = value === "#" ? "__root" : `__ref${names.size}`;
        names.set(value, name);
        const target = value === "#" ? withoutDefinitions(source) : resolvePointer(source, value);
        if (target === undefined) throw new TypeError(`$ref '${value}' points nowhere in the schema`);
        extra[name] = walk(target);
      }
      out.$ref = `#/$defs/${name}`;
    }
    return out;
  };
  const walked = walk(source) as Record<string, unknown>;
  if (Object.keys(extra).length === 0) return walked;
  return { ...walked, $defs: { ...(walked.$defs as object | undefined), ...extra } };
}

function withoutDefinitions(schema: Record<string, unknown>): Record<string, unknown> {
  const { $defs: _defs, definitions: _definitions, ...rest } = schema;
  return rest;
}

function decodePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~");
}

function resolvePointer(root: Record<string, unknown>, ref: string): unknown {
  let node: unknown = root;
  for (const token of ref.slice(2).split("/").map(decodePointerToken)) {
    if (typeof node !== "object" || node === null || !(token in node)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
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
  const undeclared = requiredWithoutProperty(source);
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
        // `false` after prefixItems (zod's tuples): no items beyond them (bounded below).
        if (value !== false) out.items = convert(value, at(key), unenforced);
        break;
      case "additionalProperties":
        out.additionalProperties = typeof value === "boolean" ? value : convert(value, at(key), unenforced);
        break;
      case "prefixItems":
      case "oneOf":
      case "anyOf":
        if (key !== "prefixItems" && asArray(value, at(key)).length === 0)
          throw new TypeError(`${at(key)} is empty: no value can match it`);
        out[key === "anyOf" ? "oneOf" : key] = asArray(value, at(key)).map((item, index) =>
          convert(item, `${at(key)}.${index}`, unenforced),
        );
        break;
      case "enum":
        if (asArray(value, at(key)).length === 0)
          throw new TypeError(`${at(key)} is empty: no value can match it`);
        out.enum = value;
        break;
      case "maxProperties":
        // node-llama-cpp writes every declared property and counts only the others against the
        // bounds: more declared properties than the maximum break it (a minimum is always met).
        if (
          typeof value === "number" &&
          Object.keys(isObject(source.properties) ? source.properties : {}).length + undeclared.length > value
        )
          unenforced.push(at(key));
        out[key] = value;
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
  assertSatisfiable(source, path);
  if (undeclared.length > 0) {
    // JSON schema: a required member must be there, and a member without a property schema is
    // checked by `additionalProperties` (any value when absent). node-llama-cpp writes declared
    // properties only, so each becomes one (the grammar dropped them, and Ajv refused the output).
    const additional = source.additionalProperties;
    const properties = { ...(out.properties as Record<string, unknown> | undefined) };
    for (const name of undeclared)
      properties[name] = isObject(additional)
        ? convert(additional, at("additionalProperties"), [])
        : anyValue;
    out.properties = properties;
  }
  if (source.items === false) {
    const fixed = Array.isArray(source.prefixItems) ? source.prefixItems.length : 0;
    out.maxItems = typeof out.maxItems === "number" ? Math.min(out.maxItems, fixed) : fixed;
  }
  return normalizeType(out, source.nullable === true);
}

/** The `required` names the schema declares no property for (refused later when none may be added). */
function requiredWithoutProperty(schema: Record<string, unknown>): string[] {
  if (!Array.isArray(schema.required)) return [];
  const declared = isObject(schema.properties) ? schema.properties : {};
  return [
    ...new Set(
      schema.required.filter(
        (name): name is string => typeof name === "string" && !Object.hasOwn(declared, name),
      ),
    ),
  ];
}

/** Bounds no value meets: the grammar would produce output that breaks the schema (or none). */
function assertSatisfiable(schema: Record<string, unknown>, path: string): void {
  const where = path || "the schema";
  for (const [low, high] of [
    ["minLength", "maxLength"],
    ["minItems", "maxItems"],
    ["minProperties", "maxProperties"],
    ["minimum", "maximum"],
  ] as const) {
    const [min, max] = [schema[low], schema[high]];
    if (typeof min === "number" && typeof max === "number" && min > max)
      throw new TypeError(`${where}: ${low} ${min} is above ${high} ${max}, so no value can match it`);
  }
  if (schema.additionalProperties === false && Array.isArray(schema.required)) {
    const declared = isObject(schema.properties) ? schema.properties : {};
    const missing = schema.required.find(
      (name) => typeof name === "string" && !Object.hasOwn(declared, name),
    );
    if (missing !== undefined)
      throw new TypeError(
        `${where}: '${String(missing)}' is required but not a property, and additionalProperties is false`,
      );
  }
}

function isOfType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return typeof value === type;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Type lists, `nullable` and typeless schemas become `oneOf` unions (each branch keeps its keywords). */
function normalizeType(given: Record<string, unknown>, nullable: boolean): unknown {
  let schema = given;
  // `enum` / `const` name the values outright: a type beside them (a list, OpenAI's nullable
  // enum `["string", "null"]`) or a `$ref` adds nothing the grammar can use, and once took
  // the values away (the type list became branches without them).
  if ("enum" in schema || "const" in schema) {
    const { type, $ref: _ref, ...values } = schema;
    schema = values;
    // The type still narrows the values: `{"type": "string", "enum": ["a", 1]}` allows "a" only.
    const types = type === undefined ? undefined : (Array.isArray(type) ? type : [type]).map(String);
    if (types && "const" in values && !types.some((name) => isOfType(values.const, name)))
      throw new TypeError(`const ${JSON.stringify(values.const)} is not a ${types.join(" or ")}`);
    if (types && Array.isArray(values.enum)) {
      const allowed = values.enum.filter((value) => types.some((name) => isOfType(value, name)));
      if (allowed.length === 0)
        throw new TypeError(`no value of enum ${JSON.stringify(values.enum)} is a ${types.join(" or ")}`);
      schema = { ...values, enum: allowed };
    }
    schema = withLiteralSchemas(schema);
  }
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

/**
 * `enum` members and a `const` that are objects or arrays as schemas only they match (node-llama-cpp
 * takes scalars only there): `{"enum": ["a", {"b": 1}]}` becomes a `oneOf` of `{"enum": ["a"]}` and
 * an object whose one property `b` is the const 1.
 */
function withLiteralSchemas(schema: Record<string, unknown>): Record<string, unknown> {
  const { enum: members, const: only, ...rest } = schema;
  const composite = (value: unknown) => typeof value === "object" && value !== null;
  const values = "const" in schema ? [only] : Array.isArray(members) ? members : [];
  if (!values.some(composite)) return schema;
  const scalars = values.filter((value) => !composite(value));
  const branches = [
    ...(scalars.length > 0 ? [{ enum: scalars }] : []),
    ...values.filter(composite).map(literalSchema),
  ];
  const kept = {
    ...(rest.description !== undefined ? { description: rest.description } : {}),
    ...(rest.$defs !== undefined ? { $defs: rest.$defs } : {}),
  };
  return branches.length === 1 ? { ...kept, ...branches[0] } : { ...kept, oneOf: branches };
}

/** The schema only `value` matches. */
function literalSchema(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) {
    return {
      type: "array",
      prefixItems: value.map(literalSchema),
      minItems: value.length,
      maxItems: value.length,
    };
  }
  if (isObject(value)) {
    return {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(value).map(([name, member]) => [name, literalSchema(member)]),
      ),
      additionalProperties: false,
    };
  }
  return { const: value };
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
