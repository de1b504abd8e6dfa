import {
  performanceResultSchema,
  type PerformanceResult,
} from "../../../src-shared/contracts/performance.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import type { PerfPrompt, PerfSample, PerfTarget } from "../../../src-main/perf/PerfTarget.js";
import type { PerfResultStore } from "../../../src-main/perf/PerfRunner.js";
import type { SystemFacts } from "../../../src-main/perf/upload/describeSystem.js";

export const fakeSystem: SystemFacts = {
  platform: "darwin",
  osVersion: "14.5",
  arch: "arm64",
  chip: "Apple M2 Pro",
  memoryBytes: 32 * 1024 ** 3,
  gpuCores: 19,
};

/** An in-memory result store that validates like the real one. */
export class MemoryResultStore implements PerfResultStore {
  readonly results = new Map<string, PerformanceResult>();
  writes = 0;

  async add(result: PerformanceResult): Promise<PerformanceResult> {
    if (this.results.has(result.result_id)) throw new PerchError("conflict", "exists");
    return this.put(result);
  }

  async put(result: PerformanceResult): Promise<PerformanceResult> {
    const parsed = performanceResultSchema.parse(result);
    this.writes += 1;
    this.results.set(parsed.result_id, parsed);
    return parsed;
  }

  async get(resultId: string): Promise<PerformanceResult> {
    const result = this.results.get(resultId);
    if (!result) throw new PerchError("result_not_found", `No result '${resultId}'`);
    return result;
  }

  async list(filter: { model_id?: string } = {}): Promise<PerformanceResult[]> {
    return [...this.results.values()].filter((r) => !filter.model_id || r.model_id === filter.model_id);
  }
}

export interface FakeTargetOptions {
  contextSize?: number | null;
  maxConcurrent?: number | null;
  /** Milliseconds each request takes. */
  delayMs?: number;
  experimentalFeatures?: string[];
  /** Called before each request; may throw. */
  onGenerate?: (prompt: PerfPrompt) => void;
}

/** A target that "generates" by waiting, honouring the abort signal like the scheduler. */
export function fakeTarget(
  options: FakeTargetOptions = {},
): PerfTarget & { prompts: PerfPrompt[]; closed: boolean } {
  const prompts: PerfPrompt[] = [];
  let counter = 0;
  const target = {
    prompts,
    closed: false,
    info: { kind: "local" as const, model_id: "fake-model" },
    modelId: "fake-model",
    model: {
      name: "Fake",
      quantization: "Q8_0",
      parameter_count: 1000,
      file_size_bytes: 2000,
      context_size: 4096,
    },
    contextSize: options.contextSize === undefined ? 4096 : options.contextSize,
    maxConcurrent: options.maxConcurrent === undefined ? 8 : options.maxConcurrent,
    backend: "cpu",
    threads: 1,
    experimentalFeatures: options.experimentalFeatures ?? [],
    async warmUp() {},
    buildPrompt(tokens: number): PerfPrompt {
      counter += 1;
      return { text: `prefix-${counter} ${"x ".repeat(tokens)}`, expectedTokens: tokens };
    },
    async generate(prompt: PerfPrompt, maxTokens: number, signal: AbortSignal): Promise<PerfSample> {
      prompts.push(prompt);
      options.onGenerate?.(prompt);
      const submittedAt = performance.now();
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, options.delayMs ?? 2);
        signal.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            reject(new PerchError("cancelled", "cancelled"));
          },
          { once: true },
        );
      });
      const endedAt = performance.now();
      return {
        promptTokens: prompt.expectedTokens,
        generatedTokens: maxTokens,
        cachedPromptTokens: 0,
        submittedAt,
        queueWaitMs: 0,
        firstTokenAt: submittedAt + (endedAt - submittedAt) / 4,
        endedAt,
      };
    },
    async gpuBytes() {
      return null;
    },
    async close() {
      target.closed = true;
    },
  };
  return target;
}
