import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";
import { buildPeerBinaries, type PeerBinaries } from "./peer/buildPeerBinaries.js";
import { preparePeerKernels, type PeerKernels } from "./peer/peerKernels.js";
import { llamaServerTokenCounter, makePrompt } from "./peer/peerPrompts.js";
import {
  startLlamaServer,
  startPerch,
  type RunningServer,
  type ServerShape,
} from "./peer/startPeerServers.js";
import { streamCompletion } from "./peer/streamCompletion.js";
import { waitUntilQuiet } from "./peer/waitUntilQuiet.js";
import { median } from "./schedulerStatistics.js";

const numberFromEnv = (name: string, fallback: number) =>
  process.env[name] ? Number.parseInt(process.env[name], 10) : fallback;

interface Sample {
  pattern: string;
  server: RunningServer["name"];
  conversation: string;
  turn: "cold" | "returning";
  ttftMs: number;
  promptTokens: number;
  cachedTokens?: number;
}

/** Both servers, or Perch alone where llama-server could not be built. */
interface Servers {
  perch: RunningServer & { cleanup: () => void };
  llama?: RunningServer;
}

/**
 * `npm run bench -- cache` (issue 16): time to first token of conversations that come back, on
 * Perch and on llama-server (built by the peer section's helpers), same model, threads, 4 slots.
 * 1. A, B, C (~1.5k-token prefixes) one after another, then A, B and C again with a new question,
 *    three rounds (each return has the other two between).
 * 2. Eight conversations over the four slots, then each of them again (evictions).
 * 3. Both servers restarted (Perch on the same base path), then each of the eight again.
 * Requests go to the two servers in turn, so a drift in machine load hits both. The realistic
 * model when it is in `.tmp/bench-models/`, else the test model. Env: PERCH_CACHE_THREADS (2),
 * PERCH_CACHE_PREFIX_TOKENS (1500), PERCH_CACHE_MAX_TOKENS (16).
 */
export const promptCacheSection: BenchSection = {
  name: "cache",
  onDemand: true,
  run: async () => {
    const log = (line: string) => process.stdout.write(`  ${line}\n`);
    const models = await benchModels();
    const shape: ServerShape = {
      modelFile: models.realistic ?? models.main,
      threads: numberFromEnv("PERCH_CACHE_THREADS", 2),
      sequences: 4,
      contextPerSequence: 4096,
    };
    const prefixTokens = numberFromEnv("PERCH_CACHE_PREFIX_TOKENS", 1500);
    const maxTokens = numberFromEnv("PERCH_CACHE_MAX_TOKENS", 16);
    const build = await buildPeerBinaries(log);
    const peer =
      build.kind === "ready"
        ? { binaries: build.binaries, kernels: await preparePeerKernels(build.binaries) }
        : undefined;
    if (!peer && build.kind === "skipped") log(`llama-server skipped: ${build.reason}`);

    const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-cache-bench-"));
    const samples: Sample[] = [];
    let servers = await startBoth(shape, basePath, peer);
    try {
      const countTokens = servers.llama
        ? llamaServerTokenCounter(servers.llama.url)
        : async (text: string) => Math.ceil(text.split(" ").length * 1.3);
      const names = ["A", "B", "C", ...Array.from({ length: 8 }, (_, index) => `D${index + 1}`)];
      const prefixes = new Map<string, string>();
      for (const name of names)
        prefixes.set(name, await makePrompt(`Conversation ${name}`, prefixTokens, countTokens));
      const ask = async (pattern: string, name: string, turn: Sample["turn"], question: string) => {
        const prompt = `${prefixes.get(name)}\nQuestion: ${question}\nAnswer:`;
        for (const server of [servers.perch, servers.llama]) {
          if (!server) continue;
          // Each request starts with neither server busy (llama-server's threads spin after a decode).
          await waitUntilQuiet(
            [servers.perch, servers.llama].flatMap((each) => (each ? [each.process.pid] : [])),
          );
          const outcome = await streamCompletion(server.url, server.model, prompt, maxTokens);
          samples.push({ pattern, server: server.name, conversation: name, turn, ...outcome });
          log(
            `${pattern} ${name} ${turn} ${server.name}: ${outcome.ttftMs.toFixed(0)} ms (cached ${outcome.cachedTokens ?? "?"})`,
          );
        }
      };
      for (const server of [servers.perch, servers.llama]) {
        if (server) await streamCompletion(server.url, server.model, "warm up", 4);
      }

      const three = "3 conversations";
      for (const name of ["A", "B", "C"]) await ask(three, name, "cold", "what is the first word?");
      // Three rounds, so the median stands on nine samples, not two; each return has the other two between.
      for (let round = 1; round <= 3; round += 1) {
        for (const name of ["A", "B", "C"])
          await ask(three, name, "returning", `what is word ${round * 10}?`);
      }

      const eight = names.slice(3);
      const spread = "8 over 4 slots";
      for (const name of eight) await ask(spread, name, "cold", "what is the first word?");
      for (const name of eight) await ask(spread, name, "returning", "what is the last word?");

      await stopBoth(servers);
      servers = await startBoth(shape, basePath, peer);
      const restart = "after restart";
      for (const name of eight) await ask(restart, name, "returning", "how many words are there?");
    } catch (error) {
      const tails = [servers.perch, servers.llama]
        .map((server) => (server ? `--- ${server.name}:\n${server.process.tail()}` : ""))
        .join("\n");
      throw new Error(`${(error as Error).message}\n${tails}`, { cause: error });
    } finally {
      await stopBoth(servers);
      servers.perch.cleanup();
    }

    const summary = summarize(samples);
    const setup = `${path.basename(shape.modelFile)}, ${shape.threads} threads, ${shape.sequences} slots x ${shape.contextPerSequence} context, ~${prefixTokens}-token prefixes, ${maxTokens} tokens generated, greedy, streamed /v1/completions`;
    return {
      json: { setup, samples, summary },
      table: [
        {
          title: `Prompt cache: TTFT per request (${setup})`,
          rows: samples.map((sample) => ({
            pattern: sample.pattern,
            conversation: sample.conversation,
            turn: sample.turn,
            server: sample.server,
            prompt_tokens: sample.promptTokens,
            cached_tokens: sample.cachedTokens ?? "-",
            ttft_ms: sample.ttftMs,
          })),
        },
        {
          title:
            "Prompt cache: median TTFT cold vs returning (targets: Perch returning <= 1.2x llama-server's with 3 conversations; <= 25% of cold with 8 over 4 slots and after a restart)",
          rows: summary,
        },
      ],
    };
  },
};

async function startBoth(
  shape: ServerShape,
  basePath: string,
  peer: { binaries: PeerBinaries; kernels: PeerKernels } | undefined,
): Promise<Servers> {
  const perch = await startPerch(shape, { basePath });
  try {
    const llama = peer ? await startLlamaServer(peer.binaries, peer.kernels, shape) : undefined;
    return { perch, llama };
  } catch (error) {
    await perch.process.stop();
    perch.cleanup();
    throw error;
  }
}

/** SIGTERM: Perch writes its prompt cache to disk as it shuts down. */
async function stopBoth(servers: Servers): Promise<void> {
  await servers.perch.process.stop();
  await servers.llama?.process.stop();
}

function summarize(samples: Sample[]): Record<string, string | number>[] {
  const rows: Record<string, string | number>[] = [];
  const ttft = (pattern: string, server: string, turn: Sample["turn"]) =>
    median(
      samples
        .filter((sample) => sample.pattern === pattern && sample.server === server && sample.turn === turn)
        .map((sample) => sample.ttftMs),
    );
  for (const pattern of [...new Set(samples.map((sample) => sample.pattern))]) {
    for (const server of ["perch", "llama-server"] as const) {
      if (!samples.some((sample) => sample.pattern === pattern && sample.server === server)) continue;
      // After the restart every request is a returning one: cold is the same conversations' first turn.
      const cold = ttft(pattern === "after restart" ? "8 over 4 slots" : pattern, server, "cold");
      const returning = ttft(pattern, server, "returning");
      const peerReturning = ttft(pattern, "llama-server", "returning");
      const row: Record<string, string | number> = {
        pattern,
        server,
        cold_ttft_ms: cold,
        returning_ttft_ms: returning,
        returning_over_cold: returning / cold,
      };
      if (server === "perch") {
        if (pattern === "3 conversations") {
          row.returning_over_llama_server = peerReturning > 0 ? returning / peerReturning : "-";
          row.target = "<= 1.2x llama-server";
          row.met = peerReturning > 0 && returning <= 1.2 * peerReturning ? "yes" : "no";
        } else {
          row.target = "<= 25% of cold";
          row.met = returning <= 0.25 * cold ? "yes" : "no";
        }
      }
      rows.push(row);
    }
  }
  return rows;
}
