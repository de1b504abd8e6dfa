import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../../src-main/server/openapi/buildOpenApiDocument.js";
import { adminRouteDocs } from "../../../src-main/server/openapi/adminRouteDocs.js";
import { inferenceRouteDocs } from "../../../src-main/server/openapi/inferenceRouteDocs.js";
import { ollamaRouteDocs } from "../../../src-main/server/openapi/ollamaRouteDocs.js";

describe("OpenAPI document", () => {
  const document = buildOpenApiDocument([...inferenceRouteDocs, ...ollamaRouteDocs, ...adminRouteDocs()], {
    version: "test",
  }) as {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
          parameters?: unknown[];
          responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
        }
      >
    >;
  };

  it("describes the inference routes from their zod contracts", () => {
    expect(document.openapi).toBe("3.1.0");
    const chat = document.paths["/v1/chat/completions"].post;
    const schema = chat.requestBody!.content["application/json"].schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["model", "messages", "max_tokens", "response_format", "stream"]),
    );
    expect(schema.required).toEqual(expect.arrayContaining(["model", "messages"]));
    expect(document.paths["/v1/messages"].post).toBeDefined();
  });

  it("covers tool calling and the request-field policy", () => {
    const json = (path: string) => {
      const operation = document.paths[path]!.post as unknown as {
        requestBody: { content: Record<string, { schema: Record<string, unknown> }> };
        responses: Record<
          string,
          { headers?: Record<string, unknown>; content: Record<string, { schema: unknown }> }
        >;
      };
      return {
        request: JSON.stringify(operation.requestBody.content["application/json"]!.schema),
        response: JSON.stringify(operation.responses["200"]!.content["application/json"]!.schema),
        headers: Object.keys(operation.responses["200"]!.headers ?? {}),
      };
    };
    const chat = json("/v1/chat/completions");
    for (const field of [
      "tools",
      "tool_choice",
      "parallel_tool_calls",
      "tool_calls",
      "tool_call_id",
      "logit_bias",
      "top_logprobs",
    ])
      expect(chat.request).toContain(`"${field}"`);
    expect(chat.response).toContain('"tool_calls"');
    // Logprobs in the answer: per token, with its candidates; the legacy shape for text completions.
    for (const field of ["logprobs", "top_logprobs", "bytes"]) expect(chat.response).toContain(`"${field}"`);
    const completions = json("/v1/completions");
    for (const field of ["token_logprobs", "text_offset"])
      expect(completions.response).toContain(`"${field}"`);
    expect(chat.headers).toEqual(["x-perch-ignored-fields"]);
    // Fill-in-the-middle on the text completions and Ollama's generate, documented where it is sent.
    for (const path of ["/v1/completions", "/api/generate"]) {
      const suffix = (
        document.paths[path]!.post!.requestBody!.content["application/json"]!.schema as {
          properties: Record<string, { description?: string }>;
        }
      ).properties.suffix;
      expect(suffix?.description, path).toContain("Fill-in-the-middle");
    }
    const messages = json("/v1/messages");
    for (const field of ["tools", "tool_choice", "tool_use", "tool_result", "input_schema", "is_error"])
      expect(messages.request).toContain(`"${field}"`);
    expect(messages.response).toContain('"tool_use"');
    expect(messages.headers).toEqual(["x-perch-ignored-fields"]);
  });

  it("covers the admin API with path parameters", () => {
    const settings = document.paths["/admin/api/models/{model_id}/settings"].put;
    expect(settings.parameters).toEqual([
      { name: "model_id", in: "path", required: true, schema: { type: "string" } },
    ]);
    expect(
      Object.keys(document.paths).filter((p) => p.startsWith("/admin/api/")).length,
    ).toBeGreaterThanOrEqual(20);
  });

  it("covers embeddings, one model by id, and Ollama's API with its NDJSON and error shapes", () => {
    const embeddings = document.paths["/v1/embeddings"].post;
    const body = embeddings.requestBody!.content["application/json"].schema as { properties: object };
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(["model", "input", "encoding_format", "dimensions"]),
    );
    expect(document.paths["/v1/models/{path}"].get.parameters).toHaveLength(1);
    for (const [path, method] of [
      ["/api/version", "get"],
      ["/api/tags", "get"],
      ["/api/ps", "get"],
      ["/api/show", "post"],
      ["/api/chat", "post"],
      ["/api/generate", "post"],
      ["/api/embed", "post"],
      ["/api/embeddings", "post"],
      ["/api/pull", "post"],
      ["/api/delete", "delete"],
    ] as const) {
      expect(document.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    }
    const chat = document.paths["/api/chat"].post;
    expect(Object.keys(chat.responses["200"].content!)).toEqual(["application/json", "application/x-ndjson"]);
    const error = chat.responses["4XX"].content!["application/json"].schema as { properties: object };
    expect(Object.keys(error.properties)).toEqual(["error"]);
    const errorHeaders = (chat.responses["4XX"] as { headers?: object }).headers;
    expect(Object.keys(errorHeaders ?? {})).toEqual(["x-perch-error-code"]);
    const chatBody = chat.requestBody!.content["application/json"].schema as { properties: object };
    expect(Object.keys(chatBody.properties)).toEqual(
      expect.arrayContaining([
        "model",
        "messages",
        "format",
        "options",
        "keep_alive",
        "think",
        "tools",
        "logprobs",
        "top_logprobs",
      ]),
    );
    expect(JSON.stringify(chat.responses["200"].content!["application/json"].schema)).toContain(
      '"top_logprobs"',
    );
  });
});
