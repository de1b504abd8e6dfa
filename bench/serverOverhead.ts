import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createCore, type Core } from "../src-main/core/createCore.js";
import { startServer } from "../src-main/server/startServer.js";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";
import { viaHttp, type HttpSweepArgs } from "./httpLoadClient.js";
import { sweep, type Row } from "./loadSweep.js";

const execFileAsync = promisify(execFile);

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

/**
 * The HTTP clients run in a child process, as apps do: in this process their stream parsing
 * would compete with the server for the event loop that also dispatches every decode.
 */
async function runHttpSweepInChild(args: HttpSweepArgs): Promise<Row> {
  const client = fileURLToPath(new URL("./httpLoadClient.ts", import.meta.url));
  const { stdout } = await execFileAsync(
    process.execPath,
    ["--import", "tsx", client, JSON.stringify(args)],
    {
      maxBuffer: 1024 * 1024,
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Row;
}

/**
 * The server's own overhead: the same greedy requests at concurrency 1/2/4/8, once through HTTP
 * (streaming, parsed by clients in another process) and once by calling the scheduler
 * in-process, in one run.
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
    // At least 8 (tiny model: 16) requests per level, so concurrency 1 is not two noisy samples.
    const perClientAt = (level: number) =>
      Math.max(realistic ? 2 : 4, Math.ceil((realistic ? 8 : 16) / level));
    try {
      await viaScheduler(core, model, "warm up", 8, "warmup");
      await viaHttp(url, model, "warm up too", 4);
      const rows: Row[] = [];
      const ratios: Record<string, number>[] = [];
      for (const [index, level] of [1, 2, 4, 8].entries()) {
        const perClient = perClientAt(level);
        const runDirect = () =>
          sweep(
            level,
            "direct",
            (prompt, id) => viaScheduler(core, model, prompt, maxTokens, id),
            "D",
            perClient,
          );
        const runHttp = () => runHttpSweepInChild({ url, model, level, perClient, maxTokens, salt: "H" });
        // Alternate which path goes first, so a drift in machine load does not favour one path.
        let direct: Row;
        let http: Row;
        if (index % 2 === 0) {
          direct = await runDirect();
          http = await runHttp();
        } else {
          http = await runHttp();
          direct = await runDirect();
        }
        rows.push(direct, http);
        ratios.push({
          concurrency: level,
          http_over_direct_tps: http.aggregate_tps / direct.aggregate_tps,
          target: 0.95,
        });
      }
      return {
        json: { model, max_tokens: maxTokens, rows, ratios },
        table: [
          {
            title: `Server vs in-process scheduler on ${model} (greedy, ${maxTokens} max tokens; HTTP clients in a child process; the paths alternate going first)`,
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
