import {
  evalRunAddRequestSchema,
  type EvalRunAddRequest,
} from "../../../../src-shared/contracts/evalQueue.js";
import type { BenchmarkName } from "../../../../src-shared/contracts/accuracy.js";
import { PerchError } from "../../../../src-main/base/PerchError.js";
import type { ScoreContext } from "../../../../src-main/evals/benchmarks/Benchmark.js";
import type { ModelResponse } from "../../../../src-main/evals/benchmarks/ModelResponse.js";
import type { BenchmarkSource } from "../../../../src-main/evals/queue/BenchmarkSource.js";
import { EvalQueue, type EvalQueueOptions } from "../../../../src-main/evals/queue/EvalQueue.js";
import { InMemoryResultSink } from "../../../../src-main/evals/queue/ResultSink.js";
import type {
  ChatMessage,
  GenerationRequest,
  GenerationResult,
} from "../../../../src-main/scheduler/GenerationRequest.js";
import { createControlledTarget, createFakeBenchmark, fakeItems, type FakeItem } from "./fakes.js";

/** An engine pool double that records loads and TTL suspensions. */
/** What the scheduler answers for one generation, with placeholder usage and timings. */
export function fakeGenerationResult(
  requestId: string,
  text: string,
  finishReason: GenerationResult["finishReason"] = "stop",
): GenerationResult {
  return {
    requestId,
    text,
    finishReason,
    usage: { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0 },
    timings: {
      queueWaitMs: 0,
      ttftMs: 0,
      promptTokensPerSecond: 0,
      generationTokensPerSecond: 0,
      totalMs: 0,
    },
  };
}

export function createFakeEngine(options: { missing?: string[] } = {}) {
  const log: string[] = [];
  let suspended = 0;
  return {
    log,
    get suspended() {
      return suspended;
    },
    async load(modelId: string) {
      if (options.missing?.includes(modelId)) {
        throw new PerchError("model_not_found", `Model '${modelId}' not found.`);
      }
      log.push(`load ${modelId}`);
    },
    suspendTtl(modelId: string) {
      suspended += 1;
      log.push(`suspend ${modelId}`);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        suspended -= 1;
        log.push(`release ${modelId}`);
      };
    },
  };
}

/**
 * A queue over fake benchmarks (`alpha` and `beta`, `count` questions each) whose generations the
 * test answers one by one through `fake`.
 */
export function createQueueFixture(
  options: {
    count?: number;
    engine?: ReturnType<typeof createFakeEngine>;
    /** Benchmark names the fake source knows. Defaults to gsm8k and mmlu. */
    names?: BenchmarkName[];
  } & Partial<EvalQueueOptions> = {},
) {
  const fake = createControlledTarget();
  const engine = options.engine ?? createFakeEngine();
  const results = new InMemoryResultSink();
  const generateRequests: GenerationRequest[] = [];
  const generate = async (request: GenerationRequest): Promise<GenerationResult> => {
    generateRequests.push(request);
    if (request.prompt.kind !== "chat") throw new Error("chat prompts only");
    const response = await fake.target.generate({
      requestId: request.requestId,
      // Eval prompts are plain text messages (no tools).
      messages: request.prompt.messages as ChatMessage[],
      sampling: request.sampling,
      maxTokens: request.maxTokens ?? 0,
      thinking: false,
      signal: request.signal!,
    });
    return fakeGenerationResult(request.requestId, response.text, response.finishReason);
  };
  const benchmarks: BenchmarkSource = {
    names: () => options.names ?? ["gsm8k", "mmlu"],
    async open(name, { sampleSize }) {
      const { benchmark } = createFakeBenchmark();
      const all = fakeItems(options.count ?? 2).map((item) => ({ ...item, id: `${name}-${item.id}` }));
      return {
        benchmark: {
          ...benchmark,
          name,
          // Answers are `a<N>` whatever the prefix.
          score: (item: FakeItem, ...rest: [ModelResponse, ScoreContext]) =>
            benchmark.score({ ...item, answer: `a${item.id.split("-q")[1]}` }, ...rest),
        },
        items: sampleSize > 0 ? all.slice(0, sampleSize) : all,
        variant: name === "mmlu" ? "v2" : "default",
      } as never;
    },
  };
  const queue = new EvalQueue({ generate, engine, benchmarks, results, ...options });
  const add = (body: EvalRunAddRequest) => queue.add(evalRunAddRequestSchema.parse(body));
  return { queue, fake, engine, results, add, generateRequests };
}
