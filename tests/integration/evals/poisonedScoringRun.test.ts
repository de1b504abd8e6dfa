import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccuracyResult } from "../../../src-shared/contracts/accuracy.js";
import type { EvalRunSummary } from "../../../src-shared/contracts/evalQueue.js";
import type { HealthResponse } from "../../../src-shared/contracts/catalog.js";
import { humanEvalBenchmark } from "../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import type { HumanEvalItem } from "../../../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import { LocalFileDatasetReader } from "../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { seedHumanEvalCache } from "../../../e2e/seedHumanEvalCache.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";

/*
 * Issue 12, end to end: through the real server, an external-target HumanEval run whose first
 * answer plants a symlink to the sandbox's scratch dir in its working dir; then a run of correct
 * answers must still score 100% (before the fix, cleanup chmod-ed the scratch dir through the
 * link and every later check on that sandbox failed as the model's runtime_error).
 */

const questions = 8;
const poison = "import os\nos.symlink(os.path.dirname(os.getcwd()), 'scratch')\n";

let server: TestServer;
let upstream: http.Server;
let upstreamUrl = "";
let items: HumanEvalItem[] = [];
/** Code the fake upstream puts before its next answer (once). */
let prefixNext = "";

/** An OpenAI-compatible upstream that answers each HumanEval prompt with its canonical solution. */
function startUpstream(): Promise<void> {
  upstream = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      const { messages } = JSON.parse(body) as { messages: { content: string }[] };
      const text = messages.map((message) => message.content).join("\n");
      const item = items.find((candidate) => text.includes(candidate.prompt));
      const prefix = prefixNext;
      prefixNext = "";
      const content = item
        ? `\`\`\`python\n${prefix}${item.prompt}${item.canonicalSolution}\`\`\``
        : "I do not know this one.";
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "chatcmpl-test",
          object: "chat.completion",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  return new Promise((resolve) =>
    upstream.listen(0, "127.0.0.1", () => {
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { "content-type": "application/json", ...init?.headers },
  });
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Queues an external HumanEval run, waits for it to finish, and returns its saved result. */
async function runHumanEval(sampleSize = questions): Promise<AccuracyResult> {
  const queued = await api<EvalRunSummary>("/admin/api/bench/accuracy/queue", {
    method: "POST",
    body: JSON.stringify({
      external: { base_url: upstreamUrl, model: "scripted" },
      benchmarks: ["humaneval"],
      sample_size: sampleSize,
      thinking: "off",
      batch_size: 2,
    }),
  });
  const deadline = Date.now() + 150_000;
  for (;;) {
    const listing = await api<{ finished: EvalRunSummary[] }>("/admin/api/bench/accuracy/queue");
    const run = listing.finished.find((candidate) => candidate.run_id === queued.run_id);
    if (run) {
      expect(run).toMatchObject({ state: "completed", error: null });
      return api<AccuracyResult>(`/admin/api/bench/accuracy/results/${run.result_ids[0]}`);
    }
    if (Date.now() > deadline) throw new Error(`run ${queued.run_id} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("a poisoned answer does not change later scores (through the server)", () => {
  beforeAll(async () => {
    items = await humanEvalBenchmark.loadItems({
      datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl.gz")),
    });
    await startUpstream();
    server = await startTestServer();
    seedHumanEvalCache(server.basePath);
  });
  afterAll(async () => {
    await server?.close();
    upstream?.close();
  });

  it("the run with the symlink trick scores every question; a second all-correct run scores 100%", async () => {
    prefixNext = poison;
    const first = await runHumanEval();
    expect(prefixNext).toBe("");
    expect(first.questions.map((question) => question.failure_type)).toEqual(Array(questions).fill(null));
    const second = await runHumanEval();
    expect(
      second.questions
        .filter((question) => !question.correct)
        .map((question) => `${question.id}: ${question.error}`),
    ).toEqual([]);
    expect(second).toMatchObject({ accuracy: 1, total: questions, status: "completed" });
    const health = await api<HealthResponse>("/admin/api/health");
    expect(health.warnings.filter((warning) => warning.code === "scoring_error")).toEqual([]);
  });

  it("a check the sandbox fails twice is a scoring_error: left out of the accuracy, and health says so", async () => {
    // A slow, correct answer; meanwhile every sandbox process of the server is killed as it appears.
    prefixNext = "import time\ntime.sleep(3)\n";
    const pools = () =>
      fs
        .readdirSync(os.tmpdir())
        .filter((entry) => entry.startsWith(`perch-sandbox-${process.pid}-`))
        .flatMap((pool) =>
          fs
            .readdirSync(path.join(os.tmpdir(), pool))
            .filter((entry) => entry.endsWith(".pid"))
            .map((entry) => path.join(os.tmpdir(), pool, entry)),
        );
    const killed = new Set<string>();
    let running = true;
    const killer = (async () => {
      while (running) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (const file of pools().filter((entry) => !killed.has(entry))) {
          killed.add(file);
          try {
            process.kill(-Number(fs.readFileSync(file, "utf8")), "SIGKILL");
          } catch {
            // Gone already.
          }
        }
      }
    })();
    const result = await runHumanEval(1).finally(() => (running = false));
    await killer;
    expect(result.questions.map((question) => question.failure_type)).toEqual(["scoring_error"]);
    expect(result).toMatchObject({ total: 0, status: "completed" });
    const health = await api<HealthResponse>("/admin/api/health");
    expect(health.status).toBe("degraded");
    expect(health.warnings).toContainEqual(
      expect.objectContaining({ code: "scoring_error", message: expect.stringContaining("1 code check") }),
    );
  });

  it("an endpoint nobody answers fails the run with generation_failed and saves no 0% result", async () => {
    // A port that was just free: nothing listens there.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
    await new Promise((resolve) => probe.close(resolve));
    const before = await api<{ results: AccuracyResult[] }>("/admin/api/bench/accuracy/results");
    const queued = await api<EvalRunSummary>("/admin/api/bench/accuracy/queue", {
      method: "POST",
      body: JSON.stringify({
        external: { base_url: closedUrl, model: "nobody" },
        benchmarks: ["humaneval"],
        sample_size: 3,
        thinking: "off",
        batch_size: 1,
      }),
    });
    let run: EvalRunSummary | undefined;
    for (const deadline = Date.now() + 60_000; !run && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const listing = await api<{ finished: EvalRunSummary[] }>("/admin/api/bench/accuracy/queue");
      run = listing.finished.find((candidate) => candidate.run_id === queued.run_id);
    }
    expect(run).toMatchObject({
      state: "failed",
      result_ids: [],
      error: {
        code: "generation_failed",
        message: expect.stringContaining("every generation failed (3 of 3)"),
      },
    });
    const after = await api<{ results: AccuracyResult[] }>("/admin/api/bench/accuracy/results");
    expect(after.results).toHaveLength(before.results.length);
  });
});
