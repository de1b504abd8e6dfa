import { z } from "zod";
import { PerchError } from "../../../base/PerchError.js";
import type { BenchmarkItem } from "../Benchmark.js";
import { extractNumericAnswer } from "../text/extractNumericAnswer.js";

const rowSchema = z.object({ question: z.string(), answer: z.string() });

export interface Gsm8kItem extends BenchmarkItem {
  question: string;
  /** The reference worked solution, ending with `#### N`. */
  solution: string;
  /** Prompt with the 8 exemplars (variant `few_shot`) rather than zero-shot. */
  fewShot: boolean;
}

/** GSM8K has no ids: an item's id is its 0-based row number in the test split. */
export function toGsm8kItem(row: unknown, index: number, fewShot = false): Gsm8kItem {
  const parsed = rowSchema.parse(row);
  const expected = /####\s*(.+)\s*$/.exec(parsed.answer)?.[1];
  const normalized = expected ? extractNumericAnswer(`#### ${expected}`)?.value : undefined;
  if (!normalized) throw new PerchError("invalid_request", `GSM8K row ${index} has no "#### N" answer`);
  return {
    id: String(index),
    expected: normalized,
    category: "gsm8k",
    question: parsed.question,
    solution: parsed.answer,
    fewShot,
  };
}
