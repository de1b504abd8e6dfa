import type {
  EvalTarget,
  TargetRequest,
  TargetResponse,
} from "../../../../src-main/evals/runner/EvalTarget.js";
import type {
  RunnableBenchmark,
  ScoredQuestion,
} from "../../../../src-main/evals/runner/RunnableBenchmark.js";
import { toEffective } from "../../../../src-main/evals/runner/resolveSampling.js";

export interface FakeItem {
  id: string;
  answer: string;
}

export interface FakeResult extends ScoredQuestion {
  response: string;
  raw_response: string;
  error: string;
}

export function fakeItems(count: number): FakeItem[] {
  return Array.from({ length: count }, (_, index) => ({ id: `q${index}`, answer: `a${index}` }));
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
 * score waits until the test releases it.
 */
export function createFakeBenchmark(options: { holdScoring?: boolean; maxTokens?: number } = {}) {
  const scoreGates = new Map<string, Deferred<void>>();
  const scored: string[] = [];
  const benchmark: RunnableBenchmark<FakeItem, FakeResult> = {
    name: "fake",
    maxTokens: options.maxTokens ?? 64,
    questionId: (item) => item.id,
    buildMessages: (item) => [{ role: "user", content: item.id }],
    async score(item, input) {
      if (options.holdScoring) {
        const gate = deferred<void>();
        scoreGates.set(item.id, gate);
        const aborted = new Promise<never>((_, reject) =>
          input.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }),
        );
        await Promise.race([gate.promise, aborted]);
      }
      scored.push(item.id);
      const correct = input.response.trim() === item.answer;
      return {
        id: item.id,
        correct,
        failure_type: correct ? null : "wrong_answer",
        time_s: 0,
        response: input.response,
        raw_response: input.rawResponse,
        error: "",
      };
    },
    unanswered: (item, _index, why) => ({
      id: item.id,
      correct: false,
      failure_type: why.failureType,
      time_s: why.timeSeconds,
      response: "",
      raw_response: why.rawResponse,
      error: why.error,
    }),
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
