import OpenAI from "openai";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

const short = { type: "string", maxLength: 6 };

/**
 * Output schemas in the dialects clients send (zod-to-json-schema and pydantic v1 write
 * `definitions`, pydantic v2 `$defs` with `anyOf [..., null]`, OpenAPI `nullable`): the JSON
 * answered under `response_format` / Ollama's `format` must validate against each.
 */
const schemas: Record<string, Record<string, unknown>> = {
  definitions_ref: {
    type: "object",
    properties: { a: { $ref: "#/definitions/B" }, b: { $ref: "#/definitions/C" } },
    required: ["a", "b"],
    additionalProperties: false,
    definitions: { B: { type: "integer" }, C: { type: "string", enum: ["x", "y"] } },
  },
  pydantic_v2: {
    title: "Answer",
    type: "object",
    $defs: {
      Item: { title: "Item", type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    },
    properties: {
      items: { title: "Items", type: "array", items: { $ref: "#/$defs/Item" }, maxItems: 2 },
      note: { anyOf: [short, { type: "null" }], default: null },
    },
    required: ["items", "note"],
  },
  openapi_nullable: {
    type: "object",
    properties: {
      value: { type: "integer", nullable: true },
      tag: { type: ["string", "null"], maxLength: 4 },
    },
    required: ["value", "tag"],
  },
  // What zod's toJSONSchema writes for a recursive object: the tree refers to its root ("#").
  zod_recursive: {
    type: "object",
    properties: { name: short, subs: { type: "array", maxItems: 2, items: { $ref: "#" } } },
    required: ["name", "subs"],
    additionalProperties: false,
  },
  // OpenAI's documented nullable enum, and a reference to another property.
  nullable_enum_and_pointer: {
    type: "object",
    properties: {
      unit: { type: ["string", "null"], enum: ["c", "f", null] },
      again: { $ref: "#/properties/unit" },
    },
    required: ["unit", "again"],
    additionalProperties: false,
  },
  // Every number must parse to a finite double (an unbounded exponent made 8E4185: Infinity).
  finite_numbers: {
    type: "object",
    properties: {
      n: { type: "number" },
      i: { type: "integer" },
      list: { type: "array", items: { type: "number" }, maxItems: 3 },
    },
    required: ["n", "i", "list"],
    additionalProperties: false,
  },
  typeless_members: {
    type: "object",
    properties: {
      list: { items: { type: "boolean" }, maxItems: 2 },
      inner: { properties: { k: short }, required: ["k"], additionalProperties: false },
    },
    required: ["list", "inner"],
  },
};

/** The same schemas where zod's reader needs another spelling (it does not read OpenAPI's `nullable`). */
const checkedAs: Record<string, Record<string, unknown>> = {
  // zod's reader resolves `$defs` only: the pointer spelled out.
  nullable_enum_and_pointer: {
    type: "object",
    properties: {
      unit: { type: ["string", "null"], enum: ["c", "f", null] },
      again: { type: ["string", "null"], enum: ["c", "f", null] },
    },
    required: ["unit", "again"],
    additionalProperties: false,
  },
  openapi_nullable: {
    type: "object",
    properties: { value: { type: ["integer", "null"] }, tag: { type: ["string", "null"], maxLength: 4 } },
    required: ["value", "tag"],
  },
};

/** zod's JSON-schema reader knows `$defs` only: the same schema in that spelling, for checking. */
function validatorFor(schema: Record<string, unknown>): z.ZodType {
  const text = JSON.stringify(schema).replaceAll("#/definitions/", "#/$defs/");
  const { definitions, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return z.fromJSONSchema((definitions ? { ...rest, $defs: definitions } : rest) as never);
}

function expectValid(text: string, name: string): void {
  const checked = validatorFor(checkedAs[name] ?? schemas[name]!).safeParse(JSON.parse(text));
  expect(checked.success, `${text}: ${JSON.stringify(checked.error?.issues)}`).toBe(true);
}

const postOllama = (path: string, body: unknown) =>
  fetch(`${perch.server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("structured output: the answer validates against the schema in every dialect", () => {
  for (const [name, schema] of Object.entries(schemas)) {
    it(`${name}: /v1/chat/completions response_format json_schema`, async () => {
      for (const seed of [1, 2, 3]) {
        const reply = await perch.openai.chat.completions.create({
          model: perch.server.mainModelId,
          messages: [{ role: "user", content: "Answer in JSON." }],
          response_format: { type: "json_schema", json_schema: { name, schema } },
          max_tokens: 200,
          temperature: 0.9,
          seed,
        });
        expect(reply.choices[0]!.finish_reason).toBe("stop");
        expectValid(reply.choices[0]!.message.content!, name);
      }
    });

    it(`${name}: Ollama /api/chat format`, async () => {
      const response = await postOllama("/api/chat", {
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "Answer in JSON." }],
        format: schema,
        stream: false,
        options: { num_predict: 200, temperature: 0.9, seed: 4 },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { message: { content: string }; done_reason: string };
      expect(body.done_reason).toBe("stop");
      expectValid(body.message.content, name);
    });
  }

  it("names the keywords the grammar cannot enforce in x-perch-ignored-fields, on both APIs", async () => {
    const schema = {
      type: "object",
      properties: { n: { type: "integer", minimum: 1, maximum: 5 }, s: { type: "string", pattern: "^a" } },
      required: ["n", "s"],
    };
    const reply = await perch.openai.chat.completions
      .create({
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "r", schema } },
        max_tokens: 60,
      })
      .withResponse();
    expect(reply.response.headers.get("x-perch-ignored-fields")).toBe(
      "response_format.json_schema.schema.properties.n.minimum, response_format.json_schema.schema.properties.n.maximum, response_format.json_schema.schema.properties.s.pattern",
    );
    const generate = await postOllama("/api/generate", {
      model: perch.server.mainModelId,
      prompt: "x",
      format: schema,
      stream: false,
      options: { num_predict: 60 },
    });
    expect(generate.status).toBe(200);
    expect(generate.headers.get("x-perch-ignored-fields")).toBe(
      "format.properties.n.minimum, format.properties.n.maximum, format.properties.s.pattern",
    );
  });

  it("refuses a type the grammar does not know with a 400 naming the field, instead of answering null", async () => {
    const error = await perch.openai.chat.completions
      .create({
        model: perch.server.mainModelId,
        messages: [{ role: "user", content: "x" }],
        response_format: { type: "json_schema", json_schema: { name: "r", schema: { type: "banana" } } },
        max_tokens: 5,
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      code: "invalid_request",
      param: "response_format",
    });
    const ollama = await postOllama("/api/chat", {
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "x" }],
      format: { type: "object", properties: { a: { type: "tuple" } } },
      stream: false,
    });
    expect(ollama.status).toBe(400);
    expect(((await ollama.json()) as { error: string }).error).toMatch(/tuple/);
    // The server keeps serving.
    const after = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      messages: [{ role: "user", content: "x" }],
      max_tokens: 3,
    });
    expect(after.choices[0]!.message.content).toBeTypeOf("string");
  });
});
