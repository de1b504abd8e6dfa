import type { Token } from "node-llama-cpp";
import type { EnginePool } from "../src-main/engine/EnginePool.js";
import { median } from "./schedulerStatistics.js";

export interface DecodeCostRow {
  tokens_per_decode: number;
  decode_ms_median: number;
  ms_per_token: number;
  /** Decode time relative to a one-token decode: ~1 means extra tokens are free (GPU), ~k means they cost full price. */
  cost_vs_one_token: number;
}

/**
 * Times one decode of k tokens of a single sequence, each with logits sampled, as speculative
 * verification does, after a 64-token prefix. The tokens are erased after each timing.
 */
export async function measureDecodeCost(
  engine: EnginePool,
  modelId: string,
  sizes: number[] = [1, 2, 4, 8, 16],
  repeats = 9,
): Promise<DecodeCostRow[]> {
  const loaded = await engine.acquire(modelId);
  const context = await loaded.model.createContext({ contextSize: 512, threads: loaded.threads });
  try {
    const sequence = context.getSequence();
    const vocabulary = loaded.model.tokenize(
      "the quick brown fox jumps over the lazy dog while def main(): return 42 ",
    );
    const tokens = (count: number, offset: number) =>
      Array.from({ length: count }, (_, i) => vocabulary[(i + offset) % vocabulary.length] as Token);
    await sequence.evaluateWithoutGeneratingNewTokens(tokens(64, 0));
    const rows: DecodeCostRow[] = [];
    for (const size of sizes) {
      const times: number[] = [];
      for (let repeat = 0; repeat < repeats; repeat++) {
        const input = tokens(size, repeat).map(
          (token) => [token, { generateNext: { token: true } }] as const,
        );
        const started = performance.now();
        await sequence.controlledEvaluate(input.map(([token, options]) => [token, options]));
        times.push(performance.now() - started);
        await sequence.eraseContextTokenRanges([{ start: 64, end: sequence.nextTokenIndex }]);
      }
      const ms = median(times);
      rows.push({
        tokens_per_decode: size,
        decode_ms_median: ms,
        ms_per_token: ms / size,
        cost_vs_one_token: 0,
      });
    }
    const one = rows[0]?.decode_ms_median ?? 1;
    for (const row of rows) row.cost_vs_one_token = row.decode_ms_median / one;
    return rows;
  } finally {
    await context.dispose();
    engine.release(loaded);
  }
}
