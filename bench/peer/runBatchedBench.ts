import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { PeerBinaries } from "./buildPeerBinaries.js";
import type { PeerKernels } from "./peerKernels.js";

const execFileAsync = promisify(execFile);

export interface BatchedBenchRow {
  parallel: number;
  /** Generation tok/s of all sequences together, decode only (no HTTP, no sampling chains). */
  generation_tps: number;
  prompt_tps: number;
}

/** llama-batched-bench: llama.cpp's own ceiling for decoding `levels` sequences at once. */
export async function runBatchedBench(
  binaries: PeerBinaries,
  kernels: PeerKernels,
  options: { modelFile: string; threads: number; levels: number[]; promptTokens: number; maxTokens: number },
): Promise<BatchedBenchRow[]> {
  const { stdout, stderr } = await execFileAsync(
    binaries.batchedBench,
    [
      "-m",
      options.modelFile,
      "-c",
      String(Math.max(...options.levels) * (options.promptTokens + options.maxTokens + 16)),
      "-t",
      String(options.threads),
      "-tb",
      String(options.threads),
      "-npp",
      String(options.promptTokens),
      "-ntg",
      String(options.maxTokens),
      "-npl",
      options.levels.join(","),
      "--output-format",
      "jsonl",
    ],
    { env: { ...process.env, LD_LIBRARY_PATH: kernels.libraryPath }, maxBuffer: 16 * 1024 * 1024 },
  );
  return `${stdout}\n${stderr}`
    .split("\n")
    .filter((line) => line.startsWith("{") && line.includes('"speed_tg"'))
    .map((line) => JSON.parse(line) as { pl: number; speed_tg: number; speed_pp: number })
    .map((row) => ({ parallel: row.pl, generation_tps: row.speed_tg, prompt_tps: row.speed_pp }));
}
