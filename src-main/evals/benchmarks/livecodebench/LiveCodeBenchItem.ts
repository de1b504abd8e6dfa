import { z } from "zod";
import type { BenchmarkItem } from "../Benchmark.js";

export const liveCodeBenchTestSchema = z.object({
  input: z.string(),
  output: z.string(),
  testtype: z.enum(["stdin", "functional"]),
});
export type LiveCodeBenchTest = z.infer<typeof liveCodeBenchTestSchema>;

/** A `code_generation_lite` row: tests and metadata are JSON strings; private tests may be encoded. */
const rowSchema = z.object({
  question_id: z.union([z.string(), z.number()]),
  question_title: z.string(),
  question_content: z.string(),
  platform: z.string(),
  contest_date: z.string(),
  starter_code: z.string().default(""),
  difficulty: z.string(),
  public_test_cases: z.string(),
  private_test_cases: z.string().default("[]"),
  metadata: z.string().default("{}"),
});

export interface LiveCodeBenchItem extends BenchmarkItem {
  title: string;
  content: string;
  platform: string;
  /** ISO date of the contest the problem comes from (for release/date windows). */
  contestDate: string;
  /** LeetCode-style class stub; empty for stdin/stdout problems. */
  starterCode: string;
  /** For functional problems: the method called on `Solution()`. */
  functionName: string | null;
  publicTests: LiveCodeBenchTest[];
  /** As stored: JSON, or base64 → zlib → pickle → JSON (decoded in the sandbox when scored). */
  privateTests: string;
}

export function toLiveCodeBenchItem(row: unknown): LiveCodeBenchItem {
  const parsed = rowSchema.parse(row);
  const publicTests = z.array(liveCodeBenchTestSchema).parse(JSON.parse(parsed.public_test_cases));
  const metadata = z
    .object({ func_name: z.string().optional() })
    .passthrough()
    .parse(JSON.parse(parsed.metadata || "{}"));
  return {
    id: String(parsed.question_id),
    expected: `all ${publicTests.length} public and the private tests pass`,
    category: parsed.difficulty,
    title: parsed.question_title,
    content: parsed.question_content,
    platform: parsed.platform,
    contestDate: parsed.contest_date,
    starterCode: parsed.starter_code,
    functionName: metadata.func_name ?? null,
    publicTests,
    privateTests: parsed.private_test_cases,
  };
}
