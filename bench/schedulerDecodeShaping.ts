import type { DecodeSizeEstimate } from "../src-main/scheduler/DecodeShaper.js";
import type { Scheduler } from "../src-main/scheduler/Scheduler.js";
import { compareAtLevels } from "./schedulerConcurrency.js";

export interface DecodeShapingRow {
  concurrency: number;
  /** Aggregate tok/s, median over the rounds, with decode shaping (the default) and with it off. */
  shaped_tps: number;
  whole_tps: number;
  shaped_vs_whole: number;
  /** Share of the shaped lane's one-token decodes that left a sequence for the next decode. */
  chunked_share: number;
}

export interface DecodeShapingResult {
  rows: DecodeShapingRow[];
  /** What the shaped lane measured by the end: decode time by number of sequences. */
  estimates: DecodeSizeEstimate[];
}

/**
 * Decode shaping on against off, on two lanes of the same model (two schedulers over two engine
 * pools, both serving model id "batch"), rounds interleaved so both see the same machine. Each
 * level starts with an unmeasured round on each lane (the shaped one learns its costs there).
 */
export async function measureDecodeShaping(
  shaped: Scheduler,
  whole: Scheduler,
  levels: readonly number[],
  rounds: number,
  maxTokens: number,
): Promise<DecodeShapingResult> {
  const figures = () => shaped.stats().models.find((model) => model.modelId === "batch")?.decodeShaping;
  const levelsCompared = await compareAtLevels(shaped, whole, levels, rounds, maxTokens, figures);
  const rows = levelsCompared.map(({ level, firstTps, secondTps, before, after }): DecodeShapingRow => {
    const decodes = (after?.decodes ?? 0) - (before?.decodes ?? 0);
    const chunked = (after?.chunkedDecodes ?? 0) - (before?.chunkedDecodes ?? 0);
    return {
      concurrency: level,
      shaped_tps: firstTps,
      whole_tps: secondTps,
      shaped_vs_whole: firstTps / secondTps,
      chunked_share: decodes > 0 ? chunked / decodes : 0,
    };
  });
  return { rows, estimates: figures()?.sizes ?? [] };
}
