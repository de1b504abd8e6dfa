import { describe, expect, it } from "vitest";
import { accuracyResultSchema, type AccuracyResult } from "../../../src-shared/contracts/accuracy.js";
import { accuracyResultCsv, performanceResultCsv, toCsv } from "../../../src-shared/export/resultCsv.js";
import { performanceResult } from "../renderer/fixtures.js";

const result: AccuracyResult = accuracyResultSchema.parse({
  result_id: "r-2024-01",
  created_at: "2024-05-01T10:00:00.000Z",
  model_id: "qwen, 7b",
  benchmark: "humaneval",
  accuracy: 0.5,
  total: 2,
  variant: "test",
  batch_size: 4,
  sampling_profile: "deterministic",
  effective_sampling: { temperature: 0, top_k: 1, max_tokens: 1024 },
  thinking: false,
  status: "completed",
  questions: [
    {
      id: "HumanEval/0",
      correct: true,
      expected: "check(f) passes",
      extracted: 'def f():\n    return "x"',
      response: "```python\ndef f(): ...```",
      pass_mode: "extracted_block",
      failure_type: null,
      error: null,
      time_s: 1.25,
      category: "humaneval",
    },
    {
      id: "HumanEval/1",
      correct: false,
      expected: "check(g) passes",
      extracted: null,
      response: "no idea",
      pass_mode: null,
      failure_type: "wrong_answer",
      error: '=HYPERLINK("http://x")',
      time_s: 0.5,
      category: "humaneval",
    },
  ],
  timings: { total_s: 2, generation_s: 1.75, scoring_s: 0.2 },
});

/** A minimal RFC 4180 reader, enough to check the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[index + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      index++;
    } else field += char;
  }
  return rows;
}

describe("result CSV (admin export and dashboard alike)", () => {
  it("writes one row per question with the run's provenance on each", () => {
    const [header, first, second, ...rest] = parseCsv(accuracyResultCsv(result));
    expect(rest).toEqual([]);
    const row = (values: string[]) => Object.fromEntries(header.map((name, index) => [name, values[index]]));
    expect(row(first)).toMatchObject({
      model_id: "qwen, 7b",
      batch_size: "4",
      variant: "test",
      sampling_profile: "deterministic",
      effective_sampling: '{"temperature":0,"top_k":1,"max_tokens":1024}',
      status: "completed",
      accuracy: "0.5",
      question_id: "HumanEval/0",
      correct: "true",
      pass_mode: "extracted_block",
      failure_type: "",
      extracted: 'def f():\n    return "x"',
      time_s: "1.25",
    });
    // A cell a spreadsheet would run as a formula is defused.
    expect(row(second)).toMatchObject({
      failure_type: "wrong_answer",
      error: '\'=HYPERLINK("http://x")',
      correct: "false",
    });
  });

  it("quotes per RFC 4180, defuses formula text and leaves numbers alone", () => {
    expect(toCsv(["a"], [['say "hi", then\ngo']])).toBe('a\r\n"say ""hi"", then\ngo"\r\n');
    expect(toCsv(["a", "b", "c", "d"], [["-1+2", -3, "@SUM(A1)", null]])).toBe(
      "a,b,c,d\r\n'-1+2,-3,'@SUM(A1),\r\n",
    );
  });

  it("writes the single and batch tests of a performance result", () => {
    const measured = performanceResult({ model_id: "=cmd|' /C calc'!A0" });
    const rows = parseCsv(performanceResultCsv(measured));
    expect(rows).toHaveLength(1 + measured.single.length + measured.batch.length);
    const header = rows[0];
    const batch = Object.fromEntries(header.map((name, index) => [name, rows.at(-1)![index]]));
    expect(batch).toMatchObject({ test: "batch", batch_size: "4", prompt_tokens: "512", tpot_ms: "" });
    expect(batch.model_id).toBe("'=cmd|' /C calc'!A0");
  });
});
