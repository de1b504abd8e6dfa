import { describe, expect, it } from "vitest";
import { toFunctionSchema } from "../../../src-main/tools/toFunctionSchema.js";

describe("toFunctionSchema", () => {
  it("rewrites anyOf, definitions and type lists into the grammar's dialect, keeping each type's keywords", () => {
    const { schema, unenforced } = toFunctionSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      title: "T",
      definitions: { unit: { enum: ["c", "f"] } },
      properties: {
        a: { anyOf: [{ type: "integer" }, { type: "null" }] },
        b: { type: ["string", "null"], maxLength: 3 },
        c: { $ref: "#/definitions/unit" },
        d: { type: "string", nullable: true },
        e: {},
        f: { type: "object" },
      },
      required: ["a"],
    });
    expect(unenforced).toEqual([]);
    expect(schema).toEqual({
      type: "object",
      $defs: { unit: { enum: ["c", "f"] } },
      properties: {
        a: { oneOf: [{ type: "integer" }, { type: "null" }] },
        b: { oneOf: [{ type: "string", maxLength: 3 }, { type: "null" }] },
        c: { $ref: "#/$defs/unit" },
        d: { oneOf: [{ type: "string" }, { type: "null" }] },
        e: expect.objectContaining({ oneOf: expect.any(Array) }),
        f: { type: "object", additionalProperties: true },
      },
      required: ["a"],
    });
  });

  it("lists the constraints the grammar cannot enforce, by path", () => {
    const { unenforced } = toFunctionSchema({
      type: "object",
      properties: {
        n: { type: "integer", minimum: 0, multipleOf: 2 },
        s: { type: "string", pattern: "^a", format: "email" },
        l: { type: "array", items: { type: "string" }, uniqueItems: true },
      },
      allOf: [],
    });
    expect(unenforced.sort()).toEqual(
      [
        "properties.n.minimum",
        "properties.n.multipleOf",
        "properties.s.pattern",
        "properties.s.format",
        "properties.l.uniqueItems",
        "allOf",
      ].sort(),
    );
  });

  it("refuses what is not a schema: an unknown type (node-llama-cpp would read it as null), a non-object", () => {
    expect(() => toFunctionSchema({ type: "object", properties: { a: { type: "tuple" } } })).toThrow(/tuple/);
    expect(() => toFunctionSchema({ type: "object", properties: { a: 5 } })).toThrow(TypeError);
  });

  it("resolves a $ref to the root (zod's recursive schemas) or to any place in the schema, as definitions", () => {
    // What z.toJSONSchema() writes for a recursive object.
    const { schema } = toFunctionSchema({
      type: "object",
      properties: {
        name: { type: "string" },
        subs: { type: "array", items: { $ref: "#" } },
        twin: { $ref: "#/properties/name" },
      },
      required: ["name", "subs"],
      additionalProperties: false,
    });
    const root = schema as unknown as {
      $defs: Record<string, { properties?: Record<string, unknown> }>;
      properties: Record<string, { items?: unknown; $ref?: string }>;
    };
    expect(root.properties.subs!.items).toEqual({ $ref: "#/$defs/__root" });
    expect(root.$defs.__root!.properties!.subs).toEqual({
      type: "array",
      items: { $ref: "#/$defs/__root" },
    });
    expect(root.properties.twin).toEqual({ $ref: "#/$defs/__ref1" });
    expect(root.$defs.__ref1).toEqual({ type: "string" });
    // Pointing nowhere, or outside the schema: refused, not "any value".
    expect(() =>
      toFunctionSchema({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }),
    ).toThrow(/names no definition/);
    expect(() => toFunctionSchema({ properties: { a: { $ref: "#/properties/b" } } })).toThrow(
      /points nowhere/,
    );
    expect(() => toFunctionSchema({ properties: { a: { $ref: "https://example.com/s.json" } } })).toThrow(
      /outside the schema/,
    );
  });

  it("keeps enum and const beside a type list (OpenAI's nullable enum) or a $ref, narrowed by the type", () => {
    const { schema } = toFunctionSchema({
      type: "object",
      $defs: { X: { type: "string" } },
      properties: {
        u: { type: ["string", "null"], enum: ["aa", "bb", null] },
        v: { type: ["string", "null"], const: "zz" },
        w: { $ref: "#/$defs/X", enum: ["p", "q"] },
        x: { type: "string", enum: ["a", 1] },
      },
    });
    expect((schema as unknown as { properties: unknown }).properties).toEqual({
      u: { enum: ["aa", "bb", null] },
      v: { const: "zz" },
      w: { enum: ["p", "q"] },
      x: { enum: ["a"] },
    });
  });

  it("refuses schemas no value can match, instead of generating output that breaks them", () => {
    for (const [unsatisfiable, message] of [
      [{ type: "object", properties: { a: { enum: [] } } }, /enum is empty/],
      [{ type: "object", properties: { a: { oneOf: [] } } }, /oneOf is empty/],
      [{ type: "object", properties: { a: { anyOf: [] } } }, /anyOf is empty/],
      [{ type: "object", properties: { a: { type: "string", minLength: 5, maxLength: 2 } } }, /minLength 5/],
      [{ type: "array", minItems: 3, maxItems: 1 }, /minItems 3/],
      [{ type: "object", properties: {}, required: ["a"], additionalProperties: false }, /'a' is required/],
      [{ type: "integer", enum: ["a"] }, /no value of enum/],
    ] as const)
      expect(() => toFunctionSchema(unsatisfiable), JSON.stringify(unsatisfiable)).toThrow(message);
  });

  it("lists maxProperties below the declared properties as not enforced (the grammar writes them all)", () => {
    const { unenforced } = toFunctionSchema({
      type: "object",
      properties: { a: { type: "boolean" }, b: { type: "boolean" } },
      maxProperties: 1,
      minProperties: 1,
    });
    expect(unenforced).toEqual(["maxProperties"]);
    expect(toFunctionSchema({ type: "object", maxProperties: 2 }).unenforced).toEqual([]);
    expect(toFunctionSchema({ type: "object", properties: { a: {} }, maxProperties: 1 }).unenforced).toEqual(
      [],
    );
  });

  it("resolves escaped definition names, closes zod's tuples (items: false) and refuses a const or bounds no value meets", () => {
    const { schema } = toFunctionSchema({
      $defs: { "a/b": { type: "boolean" }, "p%q": { type: "integer" } },
      type: "object",
      properties: {
        s: { $ref: "#/$defs/a~1b" },
        t: { $ref: "#/$defs/p%25q" },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
      },
    });
    const root = schema as unknown as {
      $defs: Record<string, unknown>;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(root.$defs[String(root.properties.s!.$ref).replace("#/$defs/", "")]).toEqual({ type: "boolean" });
    expect(root.$defs[String(root.properties.t!.$ref).replace("#/$defs/", "")]).toEqual({ type: "integer" });
    expect(root.properties.pair).toMatchObject({ maxItems: 2 });
    expect(root.properties.pair).not.toHaveProperty("items");
    expect(() => toFunctionSchema({ type: "string", const: 5 })).toThrow(/const 5 is not a string/);
    expect(() => toFunctionSchema({ type: "integer", minimum: 10, maximum: 1 })).toThrow(/minimum 10/);
  });

  it("declares a required name without a property (additionalProperties' schema, else any value)", () => {
    const { schema } = toFunctionSchema({
      type: "object",
      properties: { a: { type: "integer" } },
      required: ["a", "zz", "constructor"],
      additionalProperties: { type: "string", pattern: "x" },
    });
    expect(schema).toMatchObject({
      properties: { a: { type: "integer" }, zz: { type: "string" }, constructor: { type: "string" } },
    });
    const open = toFunctionSchema({ type: "object", required: ["zz"] }).schema as {
      properties: Record<string, unknown>;
    };
    expect(open.properties.zz).toEqual(expect.objectContaining({ oneOf: expect.any(Array) }));
    // Counted among the declared properties maxProperties is checked against.
    expect(toFunctionSchema({ type: "object", required: ["p", "q"], maxProperties: 1 }).unenforced).toEqual([
      "maxProperties",
    ]);
  });

  it("turns object and array enum members and consts into schemas only they match", () => {
    expect(toFunctionSchema({ enum: ["s", { a: 1 }, [1, [2]]], description: "d" }).schema).toEqual({
      description: "d",
      oneOf: [
        { enum: ["s"] },
        { type: "object", properties: { a: { const: 1 } }, additionalProperties: false },
        {
          type: "array",
          prefixItems: [
            { const: 1 },
            { type: "array", prefixItems: [{ const: 2 }], minItems: 1, maxItems: 1 },
          ],
          minItems: 2,
          maxItems: 2,
        },
      ],
    });
    expect(toFunctionSchema({ const: {} }).schema).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
    });
  });
});
