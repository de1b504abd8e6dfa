import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { perfExternalTargetSchema } from "../../../src-shared/contracts/performance.js";
import { createExternalTarget } from "../../../src-main/perf/createExternalTarget.js";
import { displayBaseUrl } from "../../../src-main/upstream/displayBaseUrl.js";
import { computeSingleTest } from "../../../src-main/perf/computeSingleTest.js";

interface FakeServerOptions {
  /** Milliseconds before the first token. */
  firstTokenDelayMs?: number;
  /** Answer 400 to bodies with `ignore_eos`. */
  rejectIgnoreEos?: boolean;
  sendUsage?: boolean;
}

/** An OpenAI-compatible streaming server: 1 prompt token per word, `max_tokens` one-word chunks. */
async function startFakeOpenAi(options: FakeServerOptions = {}) {
  const bodies: Record<string, unknown>[] = [];
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    request.on("end", async () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      bodies.push(body);
      paths.push(request.url ?? "");
      if (options.rejectIgnoreEos && body.ignore_eos !== undefined) {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "unknown parameter ignore_eos" } }));
        return;
      }
      const prompt =
        typeof body.prompt === "string"
          ? body.prompt
          : ((body.messages as { content: string }[])[0]?.content ?? "");
      const promptTokens = prompt.split(/\s+/).filter(Boolean).length + 1;
      const maxTokens = body.max_tokens as number;
      response.writeHead(200, { "content-type": "text/event-stream" });
      await new Promise((resolve) => setTimeout(resolve, options.firstTokenDelayMs ?? 0));
      const chat = request.url?.includes("chat");
      if (chat)
        response.write(`data: ${JSON.stringify({ choices: [{ delta: { role: "assistant" } }] })}\n\n`);
      for (let i = 0; i < maxTokens; i += 1) {
        const choice = chat ? { delta: { content: ` w${i}` } } : { text: ` w${i}` };
        // Split each event in two writes: the parser must buffer partial lines.
        const line = `data: ${JSON.stringify({ choices: [choice] })}\n\n`;
        response.write(line.slice(0, 10));
        response.write(line.slice(10));
      }
      if (options.sendUsage !== false) {
        const usage = {
          prompt_tokens: promptTokens,
          completion_tokens: maxTokens,
          prompt_tokens_details: { cached_tokens: 0 },
        };
        response.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
      }
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  closers.push(close);
  return { baseUrl: `http://127.0.0.1:${port}/v1`, bodies, paths };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("external OpenAI-compatible target", () => {
  it("times TTFT on the client, uses the server's usage and asks for the full token count", async () => {
    const server = await startFakeOpenAi({ firstTokenDelayMs: 60 });
    const target = createExternalTarget(
      perfExternalTargetSchema.parse({ base_url: `${server.baseUrl}/`, model: "remote" }),
    );
    const signal = new AbortController().signal;
    await target.warmUp(signal);
    const prompt = target.buildPrompt(512);
    const sample = await target.generate(prompt, 16, signal);
    const test = computeSingleTest(sample, { rssBytes: 0, gpuBytes: null });
    expect(test.generated_tokens).toBe(16);
    // The fake counts one token per word plus one: calibration lands on the requested length.
    expect(Math.abs(test.prompt_tokens - 512)).toBeLessThanOrEqual(2);
    expect(test.ttft_ms).toBeGreaterThanOrEqual(55);
    expect(test.tg_tps).toBeGreaterThan(0);
    const last = server.bodies.at(-1) as Record<string, unknown>;
    expect(last).toMatchObject({
      model: "remote",
      max_tokens: 16,
      stream: true,
      stream_options: { include_usage: true },
      ignore_eos: true,
      temperature: 0,
    });
    expect(server.paths.every((p) => p === "/v1/completions")).toBe(true);
    expect(target.info).toEqual({
      kind: "external",
      base_url: server.baseUrl,
      model: "remote",
      api: "completions",
    });
    expect(target.modelId).toBe("external:remote");
  });

  it("uses the chat endpoint when asked (base URL without /v1) and skips role-only chunks", async () => {
    const server = await startFakeOpenAi();
    const target = createExternalTarget(
      perfExternalTargetSchema.parse({
        base_url: server.baseUrl.replace(/\/v1$/, ""),
        model: "remote",
        api: "chat",
      }),
    );
    const sample = await target.generate(target.buildPrompt(128), 8, new AbortController().signal);
    expect(sample.generatedTokens).toBe(8);
    expect(server.paths).toEqual(["/v1/chat/completions"]);
    expect(server.bodies[0].messages).toBeDefined();
  });

  it("retries without ignore_eos when the server rejects it", async () => {
    const server = await startFakeOpenAi({ rejectIgnoreEos: true });
    const target = createExternalTarget(
      perfExternalTargetSchema.parse({ base_url: server.baseUrl, model: "remote" }),
    );
    const sample = await target.generate(target.buildPrompt(128), 4, new AbortController().signal);
    expect(sample.generatedTokens).toBe(4);
    expect(server.bodies.map((body) => "ignore_eos" in body)).toEqual([true, false]);
  });

  it("falls back to counting chunks when the server sends no usage", async () => {
    const server = await startFakeOpenAi({ sendUsage: false });
    const target = createExternalTarget(
      perfExternalTargetSchema.parse({ base_url: server.baseUrl, model: "remote" }),
    );
    const sample = await target.generate(target.buildPrompt(128), 5, new AbortController().signal);
    expect(sample.generatedTokens).toBe(5);
    expect(sample.promptTokens).toBe(128);
  });

  it("reports an HTTP error as upstream_error", async () => {
    const target = createExternalTarget(
      perfExternalTargetSchema.parse({ base_url: "http://127.0.0.1:9/v1", model: "remote" }),
      {
        fetch: async () => new Response("nope", { status: 503 }),
      },
    );
    await expect(
      target.generate(target.buildPrompt(128), 4, new AbortController().signal),
    ).rejects.toMatchObject({
      code: "upstream_error",
      details: { status: 503, message: "nope" },
    });
  });
});

describe("displayBaseUrl", () => {
  it("drops credentials and trailing slashes", () => {
    expect(displayBaseUrl("http://user:secret@127.0.0.1:8080/v1/")).toBe("http://127.0.0.1:8080/v1");
    expect(displayBaseUrl("https://api.example.com/v1")).toBe("https://api.example.com/v1");
  });
});
