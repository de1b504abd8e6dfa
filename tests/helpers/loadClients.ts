import { seededRandom } from "../../src-main/base/seededRandom.js";
import { callInference, endpoints, inferenceBody, type InferenceOutcome } from "./inferenceClient.js";

export interface LoadOptions {
  clients: number;
  requestsPerClient: number;
  seed: number;
  /** A request still unanswered after this long counts as hung (and is aborted). Defaults to 120 s. */
  hangMs?: number;
}

export interface LoadReport {
  requests: number;
  completed: number;
  /** Refused with 429 `queue_full` in the error shape. */
  refused: number;
  hung: number;
  /** Anything else: a description per request. */
  failures: string[];
  wallMs: number;
  latencyMs: { p50: number; p95: number; max: number };
}

const prompts = ["hi", "count with me: one two three", "The", "a b c", "Once upon a time"];

/**
 * `clients` concurrent clients, each sending `requestsPerClient` short requests one after another
 * (random endpoint, streaming or not). A refused client waits a few milliseconds and moves on:
 * every request must end as completed or refused, none may hang or vanish.
 */
export async function runLoad(baseUrl: string, modelId: string, options: LoadOptions): Promise<LoadReport> {
  const random = seededRandom(options.seed);
  const report: LoadReport = {
    requests: 0,
    completed: 0,
    refused: 0,
    hung: 0,
    failures: [],
    wallMs: 0,
    latencyMs: { p50: 0, p95: 0, max: 0 },
  };
  const latencies: number[] = [];
  const plans = Array.from({ length: options.clients }, () =>
    Array.from({ length: options.requestsPerClient }, () => ({
      endpoint: endpoints[Math.floor(random() * endpoints.length)]!,
      stream: random() < 0.5,
      prompt: prompts[Math.floor(random() * prompts.length)]!,
      maxTokens: 2 + Math.floor(random() * 6),
      pauseMs: Math.floor(random() * 20),
    })),
  );
  const started = performance.now();
  await Promise.all(
    plans.map(async (plan) => {
      for (const step of plan) {
        const body = inferenceBody(step.endpoint, modelId, step);
        const sent = performance.now();
        const outcome: InferenceOutcome = await callInference(baseUrl, step.endpoint, body, {
          signal: AbortSignal.timeout(options.hangMs ?? 120_000),
        });
        latencies.push(performance.now() - sent);
        report.requests += 1;
        if (outcome.aborted === "TimeoutError") report.hung += 1;
        else if (outcome.status === 200 && outcome.complete) report.completed += 1;
        // A refusal says when to retry (the SDKs wait that long).
        else if (outcome.status === 429 && outcome.code === "queue_full" && outcome.retryAfter === "1") {
          report.refused += 1;
          await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
        } else {
          report.failures.push(`${step.endpoint} stream=${step.stream}: ${JSON.stringify(outcome)}`);
        }
      }
    }),
  );
  report.wallMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  report.latencyMs = { p50: at(0.5), p95: at(0.95), max: Math.round(latencies.at(-1) ?? 0) };
  return report;
}
