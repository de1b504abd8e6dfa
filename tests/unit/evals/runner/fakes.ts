import type {
  EvalTarget,
  TargetRequest,
  TargetResponse,
} from "../../../../src-main/evals/runner/EvalTarget.js";
import type { QuestionResult } from "../../../../src-shared/contracts/accuracy.js";
import type { Benchmark, BenchmarkItem } from "../../../../src-main/evals/benchmarks/Benchmark.js";
import { toEffective } from "../../../../src-main/evals/runner/resolveSampling.js";

export interface FakeItem extends BenchmarkItem {
  answer: string;
}

export function fakeItems(count: number): FakeItem[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `q${index}`,
    answer: `a${index}`,
    expected: `a${index}`,
    category: "fake",
  }));
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run (the runner reacts before the test goes on). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * A benchmark whose answers are `a<N>`; scoring is instant unless `holdScoring` is set, then each
 * score waits until the test releases it. A response `crash` makes the scorer throw.
 */
export function createFakeBenchmark(options: { holdScoring?: boolean; maxTokens?: number } = {}) {
  const scoreGates = new Map<string, Deferred<void>>();
  const scored: string[] = [];
  // A text benchmark's name: the runner only logs it.
  const benchmark: Benchmark<FakeItem> = {
    name: "gsm8k",
    variants: ["fake"],
    defaultVariant: "fake",
    maxTokens: options.maxTokens ?? 64,
    needsSandbox: false,
    loadItems: async () => fakeItems(2),
    buildPrompt: (item) => [{ role: "user", content: item.id }],
    async score(item, response, context): Promise<QuestionResult> {
      if (options.holdScoring) {
        const gate = deferred<void>();
        scoreGates.set(item.id, gate);
        const aborted = new Promise<never>((_, reject) =>
          context.signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
        );
        await Promise.race([gate.promise, aborted]);
      }
      if (response.answer === "crash") throw new Error("python3 not found");
      scored.push(item.id);
      const correct = response.answer.trim() === item.answer;
      return {
        id: item.id,
        correct,
        expected: item.answer,
        extracted: response.answer,
        response: response.raw,
        pass_mode: correct ? "as_is" : null,
        failure_type: correct ? null : "wrong_answer",
        error: null,
        time_s: 0,
        category: "fake",
      };
    },
  };
  return { benchmark, scoreGates, scored };
}

export interface FakeCall {
  id: string;
  request: TargetRequest;
  reply: Deferred<TargetResponse>;
  aborted: boolean;
}

/** A target whose every generation waits until the test answers it (by question id). */
export function createControlledTarget() {
  const calls: FakeCall[] = [];
  const target: EvalTarget = {
    modelId: "fake-model",
    description: { kind: "local", model_id: "fake-model" },
    generate(request) {
      const call: FakeCall = { id: request.messages[0].content, request, reply: deferred(), aborted: false };
      calls.push(call);
      request.signal.addEventListener(
        "abort",
        () => {
          if (settledCalls.has(call)) return;
          call.aborted = true;
          call.reply.resolve({ text: "", finishReason: "cancelled" });
        },
        { once: true },
      );
      return call.reply.promise;
    },
    effectiveSampling: toEffective,
  };
  const pending = (id: string) => {
    const call = [...calls].reverse().find((candidate) => candidate.id === id);
    if (!call) throw new Error(`no generation started for ${id}`);
    return call;
  };
  return {
    target,
    calls,
    /** Question ids in the order their generations started. */
    started: () => calls.map((call) => call.id),
    inFlight: () => calls.filter((call) => !call.aborted && !settledCalls.has(call)).map((call) => call.id),
    answer(id: string, text?: string) {
      const call = pending(id);
      settledCalls.add(call);
      call.reply.resolve({ text: text ?? `a${id.slice(1)}`, finishReason: "stop" });
    },
    fail(id: string, message: string) {
      const call = pending(id);
      settledCalls.add(call);
      call.reply.reject(new Error(message));
    },
  };
}
const settledCalls = new WeakSet<FakeCall>();
