import { percentile } from "./schedulerStatistics.js";

/** One path at one concurrency level of the server-overhead bench. */
export interface Row {
  path: "http" | "direct";
  concurrency: number;
  requests: number;
  generated_tokens: number;
  aggregate_tps: number;
  ttft_p50_ms: number;
  ttft_p95_ms: number;
}

export const topics = [
  "rivers",
  "numbers",
  "python lists",
  "clouds",
  "maple trees",
  "orbits",
  "stones",
  "embers",
];
export const promptFor = (client: number, round: number, salt: string) =>
  `${salt} ${client}-${round}: write about ${topics[client % topics.length]} and ${topics[(client + round) % topics.length]}.`;

/**
 * `level` clients, each sending `perClient` requests one after another; aggregate tok/s over the
 * wall time of the whole level, TTFT percentiles over all requests.
 */
export async function sweep(
  level: number,
  kind: Row["path"],
  run: (prompt: string, id: string) => Promise<{ ttft: number; tokens: number }>,
  salt: string,
  perClient: number,
): Promise<Row> {
  const ttfts: number[] = [];
  let tokens = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: level }, async (_, client) => {
      for (let round = 0; round < perClient; round++) {
        const outcome = await run(promptFor(client, round, salt), `${kind}-${level}-${client}-${round}`);
        ttfts.push(outcome.ttft);
        tokens += outcome.tokens;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    path: kind,
    concurrency: level,
    requests: level * perClient,
    generated_tokens: tokens,
    aggregate_tps: tokens / seconds,
    ttft_p50_ms: percentile(ttfts, 50),
    ttft_p95_ms: percentile(ttfts, 95),
  };
}
