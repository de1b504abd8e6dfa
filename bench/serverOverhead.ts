import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createCore, type Core } from "../src-main/core/createCore.js";
import { startServer } from "../src-main/server/startServer.js";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";
import { percentile } from "./schedulerStatistics.js";

interface Row {
  path: "http" | "direct";
  concurrency: number;
  requests: number;
  generated_tokens: number;
  aggregate_tps: number;
  ttft_p50_ms: number;
  ttft_p95_ms: number;
}

const topics = ["rivers", "numbers", "python lists", "clouds", "maple trees", "orbits", "stones", "embers"];
const promptFor = (client: number, round: number, salt: string) =>
  `${salt} ${client}-${round}: write about ${topics[client % topics.length]} and ${topics[(client + round) % topics.length]}.`;

/** Streams one completion over HTTP; TTFT is measured by the client, as an app would see it. */
async function viaHttp(url: string, model: string, prompt: string, maxTokens: number) {
  const sent = performance.now();
  const response = await fetch(`${url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model,
      prompt,
      max_tokens: maxTokens,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let first: number | undefined;
  let tokens = 0;
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let index: number;
    while ((index = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, index).replace(/^data: /, "");
      buffer = buffer.slice(index + 2);
      if (event === "[DONE]") continue;
      const chunk = JSON.parse(event) as {
        choices: { text: string }[];
        usage?: { completion_tokens: number };
      };
      if (chunk.choices[0]?.text) first ??= performance.now();
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
    }
  }
  const done = performance.now();
  return { ttft: (first ?? done) - sent, tokens };
}

async function viaScheduler(core: Core, model: string, prompt: string, maxTokens: number, id: string) {
  const sent = performance.now();
  let first: number | undefined;
  const result = await core.scheduler.generate({
    requestId: id,
    modelId: model,
    prompt: { kind: "text", text: prompt },
    sampling: { temperature: 0 },
    maxTokens,
    onText: (text) => {
      if (text) first ??= performance.now();
    },
  });
  const done = performance.now();
  return { ttft: (first ?? done) - sent, tokens: result.usage.completionTokens };
}

async function sweep(
  level: number,
  kind: Row["path"],
  run: (prompt: string, id: string) => Promise<{ ttft: number; tokens: number }>,
  salt: string,
  perClient: number,
): Promise<Row> {
  const ttfts: number[] = [];
  let tokens = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, client) => {
      for (let round = 0; round < perClient; round++) {
        const outcome = await run(promptFor(client, round, salt), `${kind}-${level}-${client}-${round}`);
        ttfts.push(outcome.ttft);
        tokens += outcome.tokens;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    path: kind,
    concurrency: level,
    requests: level * perClient,
    generated_tokens: tokens,
    aggregate_tps: tokens / seconds,
    ttft_p50_ms: percentile(ttfts, 50),
    ttft_p95_ms: percentile(ttfts, 95),
  };
}

/**
 * The server's own overhead: the same greedy requests at concurrency 1/2/4/8, once through HTTP
 * (streaming, parsed by the client) and once by calling the scheduler in-process, in one run.
 * Each path gets its own prompt salt so neither profits from the other's cached prefixes.
 */
export const serverOverheadSection: BenchSection = {
  name: "server",
  run: async () => {
    const models = await benchModels();
    // A fixed per-request HTTP cost (a few ms) swamps the tiny model's ~1 ms tokens; the
    // realistic-shape model, when generated, shows what a real model sees.
    const modelFile = models.realistic ?? models.main;
    const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-bench-"));
    fs.mkdirSync(path.join(basePath, "models"));
    fs.symlinkSync(modelFile, path.join(basePath, "models", path.basename(modelFile)));
    const core = await createCore({ basePath, port: 0, logLevel: "warn" });
    const { app, url } = await startServer(core);
    const model = path.basename(modelFile).replace(/\.gguf$/, "");
    const realistic = modelFile === models.realistic;
    const maxTokens = realistic ? 24 : 64;
    const perClient = realistic ? 2 : 4;
    try {
      await viaScheduler(core, model, "warm up", 8, "warmup");
      await viaHttp(url, model, "warm up too", 4);
      const rows: Row[] = [];
      const ratios: Record<string, number>[] = [];
      for (const level of [1, 2, 4, 8]) {
        const direct = await sweep(
          level,
          "direct",
          (prompt, id) => viaScheduler(core, model, prompt, maxTokens, id),
          "D",
          perClient,
        );
        const http = await sweep(
          level,
          "http",
          (prompt) => viaHttp(url, model, prompt, maxTokens),
          "H",
          perClient,
        );
        rows.push(direct, http);
        ratios.push({
          concurrency: level,
          http_over_direct_tps: http.aggregate_tps / direct.aggregate_tps,
          target: 0.95,
        });
      }
      return {
        json: { model, max_tokens: maxTokens, requests_per_client: perClient, rows, ratios },
        table: [
          {
            title: `Server vs in-process scheduler on ${model} (greedy, ${maxTokens} max tokens, ${perClient} requests per client)`,
            rows: rows as unknown as Record<string, string | number>[],
          },
          { title: "HTTP / direct aggregate tok/s (target >= 0.95)", rows: ratios },
        ],
      };
    } finally {
      await app.close();
      await core.close();
      fs.rmSync(basePath, { recursive: true, force: true });
    }
  },
};
