import type { Token } from "node-llama-cpp";
import type { EnginePool } from "../src-main/engine/EnginePool.js";
import { testModelProgram } from "../src-main/testModel/makeTestModel.js";
import type { Scheduler } from "../src-main/scheduler/Scheduler.js";
import { benchRequest as request } from "./schedulerRequest.js";
import { median } from "./schedulerStatistics.js";

export interface SpeculationRow {
  mode: "off" | "draft" | "lookup";
  runs: number;
  generated_tokens: number;
  /** Median over runs of generated tokens / wall seconds of the request. */
  tps_median: number;
  validated: number;
  refuted: number;
  /** validated / (validated + refuted); 0 when nothing was drafted. */
  acceptance_rate: number;
  /** Whether every run produced the same text as mode "off". */
  same_text_as_off: boolean;
}

/**
 * The copy workload: a prompt holding the highest-priority token of the test model's program
 * (so the next token depends only on the last two), then that prompt's own greedy continuation,
 * then the prompt again. Greedy decoding then repeats the continuation, which is in the prompt.
 */
async function copyPrompt(scheduler: Scheduler, engine: EnginePool, maxTokens: number): Promise<string> {
  const program = testModelProgram();
  const topLevel = program.rankOfLevel.indexOf(program.rankOfLevel.length - 1);
  const loaded = await engine.acquire("off");
  let anchor = "";
  try {
    for (let token = 0; token < program.codeOfToken.length && !anchor; token++) {
      if ((program.codeOfToken[token] & (program.rankOfLevel.length - 1)) !== topLevel) continue;
      const text = loaded.model.detokenize([token as Token]);
      if (/^[ -~]+$/.test(text) && loaded.model.tokenize(text).length === 1) anchor = text;
    }
  } finally {
    engine.release(loaded);
  }
  const source = `${anchor} def fibonacci(n):\n    if n < 2:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n`;
  const continuation = await scheduler.generate(request("copy-source", "off", source, maxTokens));
  return `${source}${continuation.text}\n${source}`;
}

/** Modes off, draft, lookup (model ids of the same name, one sequence each) on the copy workload. */
export async function measureSpeculation(
  scheduler: Scheduler,
  engine: EnginePool,
  runs: number,
  maxTokens: number,
): Promise<SpeculationRow[]> {
  const prompt = await copyPrompt(scheduler, engine, maxTokens);
  const rows: SpeculationRow[] = [];
  let offText: string | undefined;
  for (const mode of ["off", "draft", "lookup"] as const) {
    await scheduler.generate(request(`${mode}-warmup`, mode, prompt, maxTokens));
    const tps: number[] = [];
    let validated = 0;
    let refuted = 0;
    let generated = 0;
    let same = true;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const result = await scheduler.generate(request(`${mode}-${run}`, mode, prompt, maxTokens));
      tps.push(result.usage.completionTokens / ((performance.now() - started) / 1000));
      validated += result.speculative?.validated ?? 0;
      refuted += result.speculative?.refuted ?? 0;
      generated += result.usage.completionTokens;
      offText ??= result.text;
      same &&= result.text === offText;
    }
    rows.push({
      mode,
      runs,
      generated_tokens: generated,
      tps_median: median(tps),
      validated,
      refuted,
      acceptance_rate: validated + refuted > 0 ? validated / (validated + refuted) : 0,
      same_text_as_off: same,
    });
  }
  return rows;
}
