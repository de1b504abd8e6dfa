import fs from "node:fs";
import path from "node:path";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModels } from "../../helpers/testModels.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

let server: TestServer;
let openai: OpenAI;
const nestedId = "acme/tiny-GGUF/tiny-Q8_0";

beforeAll(async () => {
  server = await startTestServer();
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
  // A model id with '/' and a folder, as downloads name them.
  const folder = path.join(server.basePath, "models", "acme", "tiny-GGUF");
  fs.mkdirSync(folder, { recursive: true });
  fs.symlinkSync((await ensureTestModels()).main, path.join(folder, "tiny-Q8_0.gguf"));
  const rescan = await fetch(`${server.url}/admin/api/rescan`, { method: "POST" });
  expect(rescan.status).toBe(200);
});
afterAll(async () => {
  await server?.close();
});

const post = (body: unknown) =>
  fetch(`${server.url}/v1/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const norm = (vector: number[]) => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe("POST /v1/embeddings", () => {
  it("answers the openai SDK (base64 by default) with the same vectors as float", async () => {
    const sdk = await openai.embeddings.create({ model: server.mainModelId, input: "The quick brown fox" });
    const raw = await post({ model: server.mainModelId, input: "The quick brown fox" });
    expect(raw.status).toBe(200);
    const floats = (await raw.json()) as {
      data: { embedding: number[]; index: number; object: string }[];
      usage: { prompt_tokens: number; total_tokens: number };
    };
    expect(sdk.data).toHaveLength(1);
    const vector = sdk.data[0].embedding;
    expect(vector.length).toBeGreaterThan(8);
    expect(vector).toHaveLength(floats.data[0].embedding.length);
    // base64 carries float32: equal to the float answer at float32 precision.
    vector.forEach((value, index) => expect(value).toBeCloseTo(floats.data[0].embedding[index], 5));
    expect(norm(vector)).toBeCloseTo(1, 4);
    expect(sdk.usage.prompt_tokens).toBeGreaterThan(0);
    expect(sdk.usage.total_tokens).toBe(sdk.usage.prompt_tokens);
    expect(floats.data[0]).toMatchObject({ object: "embedding", index: 0 });
  });

  it("embeds a batch in order, each input as it would be alone, with usage over all", async () => {
    const inputs = ["alpha beta", "gamma", "alpha beta gamma delta"];
    const batch = await openai.embeddings.create({
      model: server.mainModelId,
      input: inputs,
      encoding_format: "float",
    });
    expect(batch.data.map((item) => item.index)).toEqual([0, 1, 2]);
    const alone = await Promise.all(
      inputs.map((input) =>
        openai.embeddings.create({ model: server.mainModelId, input, encoding_format: "float" }),
      ),
    );
    alone.forEach((single, index) =>
      single.data[0].embedding.forEach((value, position) =>
        expect(batch.data[index].embedding[position]).toBeCloseTo(value, 5),
      ),
    );
    expect(batch.data[0].embedding).not.toEqual(batch.data[1].embedding);
    expect(batch.usage.prompt_tokens).toBe(
      alone.reduce((sum, single) => sum + single.usage.prompt_tokens, 0),
    );
  });

  it("takes token arrays and lists of token arrays", async () => {
    const one = await post({ model: server.mainModelId, input: [1, 2, 3], encoding_format: "float" });
    expect(one.status).toBe(200);
    const many = await post({
      model: server.mainModelId,
      input: [
        [1, 2, 3],
        [4, 5],
      ],
      encoding_format: "float",
    });
    expect(many.status).toBe(200);
    const oneBody = (await one.json()) as { data: { embedding: number[] }[] };
    const manyBody = (await many.json()) as { data: { embedding: number[] }[] };
    expect(manyBody.data).toHaveLength(2);
    expect(manyBody.data[0].embedding).toEqual(oneBody.data[0].embedding);
  });

  it("refuses a dimensions value other than the model's, and accepts the model's own", async () => {
    const size = (
      await openai.embeddings.create({ model: server.mainModelId, input: "x", encoding_format: "float" })
    ).data[0].embedding.length;
    const wrong = await post({ model: server.mainModelId, input: "x", dimensions: size - 1 });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error).toMatchObject({ code: "invalid_request", param: "dimensions" });
    const right = await post({ model: server.mainModelId, input: "x", dimensions: size });
    expect(right.status).toBe(200);
    const extra = await post({ model: server.mainModelId, input: "x", input_type: "query" });
    expect(extra.status).toBe(200);
    expect(extra.headers.get("x-perch-ignored-fields")).toBe("input_type");
  });

  it("refuses inputs over the context, tokens outside the vocabulary and empty inputs with 400s", async () => {
    const contextSize = 8192;
    const long = Array.from({ length: contextSize }, (_, index) => `w${index}x`).join(" ");
    const tooLong = await post({ model: server.mainModelId, input: ["ok", long] });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error).toMatchObject({ code: "context_length_exceeded", param: "input" });
    const outside = await post({ model: server.mainModelId, input: [1, 10_000_000] });
    expect(outside.status).toBe(400);
    expect((await outside.json()).error).toMatchObject({ code: "invalid_request", param: "input" });
    for (const input of ["", [], [""], [[]]]) {
      const empty = await post({ model: server.mainModelId, input });
      expect(empty.status).toBe(400);
    }
    const unknown = await post({ model: "no-such-model", input: "x" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatchObject({ code: "model_not_found", param: "model" });
  });

  it("serves chat and embeddings from one loaded model, and again after an unload", async () => {
    const chat = await openai.chat.completions.create({
      model: server.mainModelId,
      messages: [{ role: "user", content: "hi" }],
      max_tokens: 3,
    });
    expect(chat.choices[0].message.content).toBeTypeOf("string");
    const before = await openai.embeddings.create({
      model: server.mainModelId,
      input: "same",
      encoding_format: "float",
    });
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(1);
    expect(await server.core.engine.unload(server.mainModelId)).toBe(true);
    const after = await openai.embeddings.create({
      model: server.mainModelId,
      input: "same",
      encoding_format: "float",
    });
    expect(after.data[0].embedding).toEqual(before.data[0].embedding);
    expect(server.core.engine.loadCount(server.mainModelId)).toBe(2);
  });
});

describe("GET /v1/models/{id}", () => {
  it("answers one model in OpenAI's shape, for ids with '/' sent encoded (the SDK) or as is", async () => {
    const model = await openai.models.retrieve(server.mainModelId);
    expect(model).toMatchObject({ id: server.mainModelId, object: "model", owned_by: "perch" });
    expect(model.created).toBeTypeOf("number");
    const nested = await openai.models.retrieve(nestedId);
    expect(nested.id).toBe(nestedId);
    const plain = await fetch(`${server.url}/v1/models/${nestedId}`);
    expect(plain.status).toBe(200);
    expect((await plain.json()).id).toBe(nestedId);
  });

  it("answers an unknown id with 404 model_not_found naming the model param", async () => {
    const error = await openai.models.retrieve("acme/none:latest").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({
      code: "model_not_found",
      param: "model",
    });
  });
});
