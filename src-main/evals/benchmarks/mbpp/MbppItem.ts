import { z } from "zod";
import type { BenchmarkItem } from "../Benchmark.js";

/** Full MBPP (`mbpp.jsonl`, Hub `full`) and sanitized MBPP (`sanitized-mbpp.json`, Hub `sanitized`) rows. */
const fullRowSchema = z.object({
  task_id: z.number().int(),
  text: z.string(),
  code: z.string(),
  test_list: z.array(z.string()),
  test_setup_code: z.string().default(""),
});
const sanitizedRowSchema = z.object({
  task_id: z.number().int(),
  prompt: z.string(),
  code: z.string(),
  test_list: z.array(z.string()),
  test_imports: z.array(z.string()).default([]),
});

export interface MbppItem extends BenchmarkItem {
  /** The task in words. */
  text: string;
  /** The reference solution. */
  code: string;
  /** `assert` statements. */
  tests: string[];
  /** Setup the asserts need (imports, shared values); usually empty. */
  setup: string;
}

export function toMbppItem(row: unknown): MbppItem {
  const sanitized = sanitizedRowSchema.safeParse(row);
  const parsed = sanitized.success
    ? { ...sanitized.data, text: sanitized.data.prompt, setup: sanitized.data.test_imports.join("\n") }
    : (() => {
        const full = fullRowSchema.parse(row);
        return { ...full, setup: full.test_setup_code };
      })();
  return {
    id: String(parsed.task_id),
    expected: parsed.test_list.join("\n"),
    category: "mbpp",
    text: parsed.text,
    code: parsed.code,
    tests: parsed.test_list,
    setup: parsed.setup,
  };
}
