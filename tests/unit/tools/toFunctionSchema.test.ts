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
});
