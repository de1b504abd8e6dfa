import type { ModelRow } from "../../src-shared/contracts/models.js";
import type { PerformanceResult } from "../../src-shared/contracts/performance.js";
import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";
import { modelDisplayName } from "../models/modelDisplayName.js";

export interface SpeedPoint {
  promptTokens: number;
  pp: number;
  tg: number;
}

/** pp/tg by prompt length from the model's newest performance result. */
export function speedByPrompt(results: PerformanceResult[], modelId: string): SpeedPoint[] {
  const newest = results
    .filter((result) => result.model_id === modelId)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))[0];
  if (!newest) return [];
  return [...newest.single]
    .sort((a, b) => a.prompt_tokens - b.prompt_tokens)
    .map((test) => ({ promptTokens: test.prompt_tokens, pp: round(test.pp_tps), tg: round(test.tg_tps) }));
}

export interface ComparisonBar {
  modelId: string;
  name: string;
  pp: number;
  tg: number;
  selected: boolean;
}

/** Every measured model's canonical speed, the chosen one marked, fastest generation first. */
export function modelComparison(models: ModelRow[], modelId: string): ComparisonBar[] {
  return models
    .filter((model) => model.performance !== null)
    .map((model) => ({
      modelId: model.id,
      name: modelDisplayName(model),
      pp: round(model.performance?.pp_tps ?? 0),
      tg: round(model.performance?.tg_tps ?? 0),
      selected: model.id === modelId,
    }))
    .sort((a, b) => b.tg - a.tg);
}

export interface AccuracySeries {
  benchmarks: string[];
  /** One point per result: `at` (ms) and the accuracy in percent under its benchmark's key. */
  points: ({ at: number } & Record<string, number>)[];
}

/** The model's accuracy results over time, one series per benchmark. */
export function accuracyOverTime(results: AccuracyResult[], modelId: string): AccuracySeries {
  const own = results
    .filter((result) => result.model_id === modelId)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  const benchmarks = [...new Set(own.map((result) => result.benchmark))];
  const points = own.map(
    (result) =>
      ({ at: Date.parse(result.created_at), [result.benchmark]: round(result.accuracy * 100) }) as {
        at: number;
      } & Record<string, number>,
  );
  return { benchmarks, points };
}

const round = (value: number) => Math.round(value * 10) / 10;
