import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { runEvalScore } from "../../../../src-main/cli/evalScoreCommand.js";
import { fixtureDataset, readFixtureText, repoRoot } from "../../../helpers/fixtureDatasets.js";

const run = promisify(execFile);
const entry = path.join(repoRoot, "tests/unit/evals/cli/evalScoreEntry.ts");
const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-eval-score-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function score(benchmark: string, dataset: string, lines: string[]) {
  const responses = path.join(dir, `${benchmark}.jsonl`);
  fs.writeFileSync(responses, `${lines.join("\n")}\n`);
  const args = [
    entry,
    "eval",
    "score",
    "--benchmark",
    benchmark,
    "--responses",
    responses,
    "--dataset",
    dataset,
    "--json",
  ];
  const { stdout, stderr } = await run(tsx, args, {
    cwd: repoRoot,
    env: { ...process.env, PERCH_HOME: dir },
  });
  return {
    results: stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>),
    stderr,
  };
}

/** The same command in this process (spawning tsx costs seconds; one spawned test is enough). */
async function scoreInProcess(benchmark: string, dataset: string, lines: string[], json = true) {
  const responses = path.join(dir, `${benchmark}-in-process.jsonl`);
  fs.writeFileSync(responses, `${lines.join("\n")}\n`);
  let stdout = "";
  let stderr = "";
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        append(chunk.toString());
        done();
      },
    });
  const code = await runEvalScore(
    { benchmark, responses, dataset, basePath: dir, json },
    { stdout: sink((text) => (stdout += text)), stderr: sink((text) => (stderr += text)) },
  );
  const results =
    json && stdout.trim()
      ? stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  return { code, results, stdout, stderr };
}

describe("perch eval score", () => {
  it("runs as its own process: GSM8K by 0-based line number, in input order, summary on stderr", async () => {
    const [first] = readFixtureText("gsm8k-test.jsonl").split("\n", 1);
    const reference = (JSON.parse(first) as { answer: string }).answer;
    const { results, stderr } = await score("gsm8k", fixtureDataset("gsm8k-test.jsonl"), [
      JSON.stringify({ id: "0", response: reference }),
      JSON.stringify({ id: 1, response: "The answer is 1234567." }),
      JSON.stringify({ id: "99999", response: "#### 1" }),
      "{not json",
    ]);
    expect(results.map((result) => [result.id, result.correct])).toEqual([
      ["0", true],
      ["1", false],
      ["99999", false],
      [null, false],
    ]);
    expect(results[0]).toMatchObject({ pass_mode: "hashes", failure_type: null, error: null });
    expect(results[1]).toMatchObject({ pass_mode: null, failure_type: "wrong_answer" });
    expect(results[2].error).toMatch(/no item with id "99999"/);
    expect(stderr.trim().split("\n").at(-1)).toBe("1 passed, 3 failed");
  });

  it("rescores HumanEval and MBPP code in the sandbox", async () => {
    const humanEval = await scoreInProcess("humaneval", fixtureDataset("HumanEval.jsonl.gz"), [
      JSON.stringify({
        id: "HumanEval/2",
        response: "```python\ndef truncate_number(number: float) -> float:\n    return number % 1.0\n```",
      }),
      JSON.stringify({ id: "HumanEval/2", response: "    return number // 1.0\n" }),
    ]);
    expect(humanEval.code).toBe(0);
    expect(
      humanEval.results.map((result) => [result.id, result.correct, result.pass_mode, result.failure_type]),
    ).toEqual([
      ["HumanEval/2", true, "block_1:as_is", null],
      ["HumanEval/2", false, null, "wrong_answer"],
    ]);
    expect(humanEval.stderr).toBe("1 passed, 1 failed\n");
    const mbpp = await scoreInProcess("mbpp", fixtureDataset("mbpp.jsonl"), [
      JSON.stringify({ id: 2, response: "def similar_elements(a, b):\n    return tuple(set(a) & set(b))" }),
    ]);
    expect(mbpp.results[0]).toMatchObject({ id: "2", correct: true, pass_mode: "response:as_is" });
  });

  it("refuses an unknown benchmark with exit code 2, suggesting the closest name", async () => {
    const refused = await scoreInProcess("nope", fixtureDataset("mbpp.jsonl"), []);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Unknown benchmark "nope"\. Known benchmarks: humaneval, mbpp/);
    const typo = await scoreInProcess("humaneavl", fixtureDataset("mbpp.jsonl"), []);
    expect(typo.stderr).toContain('Unknown benchmark "humaneavl". Did you mean "humaneval"?');
    expect(typo.stderr).not.toMatch(/Invalid option|expected one of/);
  });

  it("prints a compact summary by default, in eval run's words; names are case-insensitive", async () => {
    const summary = await scoreInProcess(
      "MBPP",
      fixtureDataset("mbpp.jsonl"),
      [
        JSON.stringify({ id: 2, response: "def similar_elements(a, b):\n    return tuple(set(a) & set(b))" }),
        JSON.stringify({ id: 3, response: "def is_not_prime(n):\n    return False" }),
        "{not json",
      ],
      false,
    );
    expect(summary.code).toBe(0);
    expect(summary.stdout).toBe(
      "mbpp: 1/3 = 33.3% | wrong_answer 1, unscorable 1\nfailed: 3, (invalid line)\n",
    );
    expect(summary.stderr).toBe("");
  });

  it("leaves a question the scorer could not judge out of the score, as eval run does", async () => {
    // The first problem's private tests made unreadable: a scoring_error, not the model's failure.
    const rows = fs
      .readFileSync(path.join(repoRoot, "tests/unit/evals/fixtures/livecodebench.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    rows[0]!.private_test_cases = "!!!not-base64-or-json";
    const dataset = path.join(dir, "livecodebench-unreadable.jsonl");
    fs.writeFileSync(dataset, `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`);
    const summary = await scoreInProcess(
      "livecodebench",
      dataset,
      [
        JSON.stringify({ id: "abc999_a", response: "a, b = map(int, input().split())\nprint(a + b)" }),
        JSON.stringify({
          id: "1",
          response:
            "class Solution:\n    def twoSum(self, nums, target):\n        seen = {}\n        for i, n in enumerate(nums):\n            if target - n in seen:\n                return [seen[target - n], i]\n            seen[n] = i",
        }),
      ],
      false,
    );
    expect(summary.stdout.split("\n")[0]).toBe("livecodebench: 1/1 = 100.0% | scoring_error 1 (not counted)");
  });
});
