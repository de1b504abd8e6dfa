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

/** One level of an interleaved comparison: median tok/s of each lane and the figures around the rounds. */
export interface LevelComparison<Figures> {
  level: number;
  firstTps: number;
  secondTps: number;
  before: Figures | undefined;
  after: Figures | undefined;
}

/**
 * Two schedulers serving model id "batch" (two lanes of the same model), one client request each
 * per round: at each level an unmeasured round on each first (a lane that measures learns there),
 * then `rounds` interleaved rounds so both see the same machine; `figures` is read just before the
 * measured rounds and after them.
 */
export async function compareAtLevels<Figures>(
  first: Scheduler,
  second: Scheduler,
  levels: readonly number[],
  rounds: number,
  maxTokens: number,
  figures: () => Figures | undefined,
): Promise<LevelComparison<Figures>[]> {
  const results: LevelComparison<Figures>[] = [];
  for (const level of levels) {
    await measureConcurrency(first, level, 1, maxTokens);
    await measureConcurrency(second, level, 1, maxTokens);
    const before = figures();
    const firstTps: number[] = [];
    const secondTps: number[] = [];
    for (let round = 0; round < rounds; round++) {
      firstTps.push((await measureConcurrency(first, level, 1, maxTokens)).aggregate_tps);
      secondTps.push((await measureConcurrency(second, level, 1, maxTokens)).aggregate_tps);
    }
    results.push({
      level,
      firstTps: median(firstTps),
      secondTps: median(secondTps),
      before,
      after: figures(),
    });
  }
  return results;
}
