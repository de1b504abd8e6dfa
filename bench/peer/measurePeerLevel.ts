import { percentile } from "../schedulerStatistics.js";
import { makePrompt } from "./peerPrompts.js";
import type { RunningServer } from "./startPeerServers.js";
import { streamCompletion } from "./streamCompletion.js";

/** What one server did at one concurrency level, summed over the rounds. */
export interface LevelTally {
  requests: number;
  generatedTokens: number;
  promptTokens: number;
  seconds: number;
  ttftsMs: number[];
  /** Aggregate tok/s of each round, in order (rounds pair up across the servers). */
  roundTps: number[];
  /** TTFT p50 of each round, in order. */
  roundTtftP50Ms: number[];
}

export function emptyTally(): LevelTally {
  return {
    requests: 0,
    generatedTokens: 0,
    promptTokens: 0,
    seconds: 0,
    ttftsMs: [],
    roundTps: [],
    roundTtftP50Ms: [],
  };
}

export interface LevelRound {
  server: RunningServer;
  level: number;
  /** Requests each client sends one after another. */
  perClient: number;
  promptTokens: number;
  maxTokens: number;
  /** Makes every prompt of this round unique (no cached prefix on either server). */
  tag: string;
  countTokens: (text: string) => Promise<number>;
}

/** `level` clients at once, each sending `perClient` requests; adds the round to `tally`. */
export async function measurePeerLevel(round: LevelRound, tally: LevelTally): Promise<void> {
  const prompts = await Promise.all(
    Array.from({ length: round.level * round.perClient }, (_, index) =>
      makePrompt(`${round.tag} ${index}`, round.promptTokens, round.countTokens),
    ),
  );
  const started = performance.now();
  const generatedBefore = tally.generatedTokens;
  const ttftsBefore = tally.ttftsMs.length;
  await Promise.all(
    Array.from({ length: round.level }, async (_, client) => {
      for (let request = 0; request < round.perClient; request++) {
        const outcome = await streamCompletion(
          round.server.url,
          round.server.model,
          prompts[client * round.perClient + request]!,
          round.maxTokens,
        );
        tally.requests += 1;
        tally.generatedTokens += outcome.completionTokens;
        tally.promptTokens += outcome.promptTokens;
        tally.ttftsMs.push(outcome.ttftMs);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  tally.seconds += seconds;
  tally.roundTps.push((tally.generatedTokens - generatedBefore) / seconds);
  tally.roundTtftP50Ms.push(percentile(tally.ttftsMs.slice(ttftsBefore), 50));
}
