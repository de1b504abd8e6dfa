import { z } from "zod";
import type { BenchmarkItem } from "../Benchmark.js";

/** A HumanEval row, as in `HumanEval.jsonl.gz` and the Hub's parquet. */
export const humanEvalRowSchema = z.object({
  task_id: z.string(),
  prompt: z.string(),
  canonical_solution: z.string(),
  test: z.string(),
  entry_point: z.string(),
});

export interface HumanEvalItem extends BenchmarkItem {
  /** Imports, helpers and the signature with its docstring: what a completion continues. */
  prompt: string;
  /** Defines `check(candidate)`. */
  test: string;
  entryPoint: string;
  canonicalSolution: string;
}

export function toHumanEvalItem(row: unknown): HumanEvalItem {
  const parsed = humanEvalRowSchema.parse(row);
  return {
    id: parsed.task_id,
    expected: `check(${parsed.entry_point}) passes`,
    category: "humaneval",
    prompt: parsed.prompt,
    test: parsed.test,
    entryPoint: parsed.entry_point,
    canonicalSolution: parsed.canonical_solution,
  };
}
