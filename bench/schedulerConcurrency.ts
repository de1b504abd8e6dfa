import type { Scheduler } from "../src-main/scheduler/Scheduler.js";
import { benchRequest as request } from "./schedulerRequest.js";
import { median, percentile } from "./schedulerStatistics.js";

export interface ConcurrencyRow {
  concurrency: number;
  requests: number;
  generated_tokens: number;
  aggregate_tps: number;
  ttft_p50_ms: number;
  ttft_p95_ms: number;
  per_request_tps_p50: number;
}

const words = ["alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "ember", "maple", "orbit"];

/** `level` clients, each sending `perClient` requests back to back to model id "batch". */
export async function measureConcurrency(
  scheduler: Scheduler,
  level: number,
  perClient: number,
  maxTokens: number,
): Promise<ConcurrencyRow> {
  const ttfts: number[] = [];
  const perRequestTps: number[] = [];
  let generated = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, client) => {
      for (let round = 0; round < perClient; round++) {
        // Distinct prompts: no request reuses another's cached prefix.
        const text = `${words[client % words.length]} ${round} ${words.join(" ")} ${client}`;
        const sent = performance.now();
        let firstText: number | undefined;
        const result = await scheduler.generate({
          ...request(`c${level}-${client}-${round}`, "batch", text, maxTokens),
          onText: () => (firstText ??= performance.now()),
        });
        const done = performance.now();
        ttfts.push((firstText ?? done) - sent);
        perRequestTps.push(result.usage.completionTokens / ((done - sent) / 1000));
        generated += result.usage.completionTokens;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    concurrency: level,
    requests: level * perClient,
    generated_tokens: generated,
    aggregate_tps: generated / seconds,
    ttft_p50_ms: percentile(ttfts, 50),
    ttft_p95_ms: percentile(ttfts, 95),
    per_request_tps_p50: median(perRequestTps),
  };
}
