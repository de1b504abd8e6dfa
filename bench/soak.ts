import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { seededRandom } from "../src-main/base/seededRandom.js";
import { generateBadRequests } from "../tests/helpers/badRequests.js";
import { buildCrashChild, runCrashRounds } from "../tests/helpers/crashRounds.js";
import {
  fetchStats,
  mapConcurrently,
  refusalProblem,
  waitForIdle,
} from "../tests/helpers/hardeningChecks.js";
import { callInference, endpoints, inferenceBody } from "../tests/helpers/inferenceClient.js";
import { runLoad } from "../tests/helpers/loadClients.js";
import { rawRequest } from "../tests/helpers/rawHttp.js";
import { startTestServer, type TestServer } from "../tests/helpers/startTestServer.js";
import type { BenchSection } from "./BenchSection.js";

/*
 * The long versions of the hardening tests (`npm run bench -- soak`): many more malformed
 * requests, a longer load run with memory sampled throughout, hundreds of aborts at random
 * moments, and hundreds of SIGKILLs. Failures are counted and reported, not thrown, so one run
 * shows everything that went wrong.
 */

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

async function badInputSoak(server: TestServer, seeds: number[], perSeed: number) {
  const contextTokens = (await fetchStats(server.url)).models[0]?.contextSize ?? 4096;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const problems: string[] = [];
  const started = performance.now();
  let sent = 0;
  for (const seed of seeds) {
    const requests = generateBadRequests(seed, perSeed, { modelId: server.mainModelId, contextTokens });
    await mapConcurrently(requests, 8, async (request) => {
      const response = await rawRequest(server.url, { ...request, agent }).catch((error: Error) => ({
        status: 0,
        headers: {},
        body: error.message,
      }));
      sent += 1;
      const problem = refusalProblem(response, request);
      if (problem)
        problems.push(
          `seed ${seed} ${request.kind} ${request.method} ${request.path.slice(0, 80)}: ${problem}`,
        );
    });
  }
  agent.destroy();
  return { requests: sent, problems, wall_ms: Math.round(performance.now() - started) };
}

async function loadSoak(server: TestServer) {
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(process.memoryUsage().rss), 250);
  await runLoad(server.url, server.mainModelId, { clients: 4, requestsPerClient: 3, seed: 1 });
  await waitForIdle(server.url);
  const baseline = process.memoryUsage().rss;
  const report = await runLoad(server.url, server.mainModelId, {
    clients: 32,
    requestsPerClient: 100,
    seed: 9,
  });
  const idle = await waitForIdle(server.url);
  clearInterval(sampler);
  return {
    ...report,
    failures: report.failures.slice(0, 20),
    failure_count: report.failures.length,
    idle_after: idle,
    rss_mb: {
      idle_before: megabytes(baseline),
      peak: megabytes(Math.max(...samples)),
      idle_after: megabytes(process.memoryUsage().rss),
    },
  };
}

async function abortSoak(server: TestServer, count: number) {
  const random = seededRandom(4242);
  const longPrompt = Array.from({ length: 400 }, (_, index) => `w${index}x`).join(" ");
  const started = performance.now();
  let aborted = 0;
  let answered = 0;
  let refused = 0;
  let other = 0;
  // Waves of 16 so queued, prefilling and streaming requests are all in the mix.
  for (let wave = 0; wave < count / 16; wave += 1) {
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, () => {
        const endpoint = endpoints[Math.floor(random() * endpoints.length)]!;
        const controller = new AbortController();
        setTimeout(() => controller.abort(), Math.floor(random() * 600));
        const prompt = random() < 0.3 ? longPrompt : "count with me: one two three";
        return callInference(
          server.url,
          endpoint,
          inferenceBody(endpoint, server.mainModelId, { prompt, maxTokens: 200, stream: random() < 0.6 }),
          { signal: controller.signal },
        );
      }),
    );
    for (const outcome of outcomes) {
      if (outcome.aborted === "AbortError") aborted += 1;
      else if (outcome.status === 200) answered += 1;
      else if (outcome.status === 429) refused += 1;
      else other += 1;
    }
  }
  const idle = await waitForIdle(server.url);
  return {
    requests: aborted + answered + refused + other,
    aborted,
    answered,
    refused,
    other,
    idle_after: idle,
    wall_ms: Math.round(performance.now() - started),
  };
}

export const soak: BenchSection = {
  name: "soak",
  onDemand: true,
  run: async () => {
    const server = await startTestServer();
    let badInput;
    let load;
    let aborts;
    try {
      await fetch(`${server.url}/admin/api/models/${encodeURIComponent(server.mainModelId)}/settings`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ max_concurrent_requests: 4, max_queue: 6 }),
      });
      await callInference(
        server.url,
        "chat",
        inferenceBody("chat", server.mainModelId, { prompt: "hi", maxTokens: 2, stream: false }),
      );
      badInput = await badInputSoak(server, [1, 2, 3, 4, 5], 1000);
      load = await loadSoak(server);
      aborts = await abortSoak(server, 256);
    } finally {
      await server.close();
    }

    const bundle = await buildCrashChild();
    const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-soak-crash-"));
    let crash;
    try {
      crash = await runCrashRounds(bundle, { basePath, rounds: 300, seed: 11 });
    } finally {
      fs.rmSync(basePath, { recursive: true, force: true });
      fs.rmSync(bundle, { force: true });
    }

    const json = {
      bad_input: {
        ...badInput,
        problems: badInput.problems.slice(0, 50),
        problem_count: badInput.problems.length,
      },
      load,
      aborts,
      crash: { ...crash, problems: crash.problems.slice(0, 50), problem_count: crash.problems.length },
    };
    return {
      json,
      table: [
        {
          title: "Soak: hardening under sustained abuse (failures should all be 0)",
          rows: [
            {
              part: "bad input",
              work: `${badInput.requests} malformed requests`,
              failures: badInput.problems.length,
              wall_ms: badInput.wall_ms,
              notes: "every answer a typed 4xx",
            },
            {
              part: "load",
              work: `${load.requests} requests, 32 clients`,
              failures: load.failure_count + load.hung,
              wall_ms: Math.round(load.wallMs),
              notes: `${load.completed} completed, ${load.refused} x 429; p95 ${load.latencyMs.p95} ms; RSS ${load.rss_mb.idle_before} → peak ${load.rss_mb.peak} → ${load.rss_mb.idle_after} MB`,
            },
            {
              part: "aborts",
              work: `${aborts.requests} requests aborted at random moments`,
              failures: aborts.other + aborts.idle_after.activeSequences + aborts.idle_after.queueDepth,
              wall_ms: aborts.wall_ms,
              notes: `${aborts.aborted} aborted, ${aborts.answered} answered first, ${aborts.refused} x 429; idle after`,
            },
            {
              part: "crash",
              work: `${crash.rounds} SIGKILLs`,
              failures: crash.problems.length,
              wall_ms: Math.round(crash.wallMs),
              notes: `${crash.adminWrites} admin writes, ${crash.resultsWritten} results; ${crash.tempFilesLeft} temp files left`,
            },
          ],
        },
      ],
    };
  },
};
