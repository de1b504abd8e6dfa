import { describe, expect, it } from "vitest";
import { accuracyResultSchema, type AccuracyResult } from "../../../src-shared/contracts/evals.js";
import { exportResult } from "../../../src-main/evals/exportResult.js";

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

describe("exportResult", () => {
  it("exports the whole result as JSON", () => {
    const exported = exportResult(result, "json");
    expect(exported).toMatchObject({ contentType: "application/json", fileName: "humaneval-r-2024-01.json" });
    expect(accuracyResultSchema.parse(JSON.parse(exported.body))).toEqual(result);
  });

  it("exports one CSV row per question with the run's provenance on each", () => {
    const exported = exportResult(result, "csv");
    expect(exported).toMatchObject({
      contentType: "text/csv; charset=utf-8",
      fileName: "humaneval-r-2024-01.csv",
    });
    const [header, first, second] = parseCsv(exported.body);
    const row = (values: string[]) => Object.fromEntries(header.map((name, index) => [name, values[index]]));
    expect(row(first)).toMatchObject({
      model_id: "qwen, 7b",
      batch_size: "4",
      variant: "test",
      sampling_profile: "deterministic",
      effective_sampling: '{"temperature":0,"top_k":1,"max_tokens":1024}',
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
});
