import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, describe, expect, it } from "vitest";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { createBenchmarkSource } from "../../../../src-main/evals/queue/createBenchmarkSource.js";
import type { CodeSandbox } from "../../../../src-main/evals/scoring/SandboxRun.js";
import { fixtureDataset, readFixtureJsonLines } from "../../../helpers/fixtureDatasets.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-local-datasets-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** `perch eval run --dataset FILE`: the queue's benchmark source over one local file. */
function open(file: string, benchmark: "mbpp" | "gsm8k" | "humaneval" | "mmlu", variant?: string) {
  const source = createBenchmarkSource({
    datasets: new LocalFileDatasetReader(file),
    // Never asked to check code here; the source only needs one to hand over.
    sandbox: async () => ({}) as CodeSandbox,
  });
  return source.open(benchmark, { sampleSize: 100_000, variant, signal: new AbortController().signal });
}

const ids = (items: { id: string }[]) => items.map((item) => Number(item.id));

describe("a local dataset file stands in for the Hub source only as the same split", () => {
  it("mbpp.jsonl (974 tasks) is cut to the Hub's test split, task_id 11–510 (500)", async () => {
    const { items, variant } = await open(fixtureDataset("mbpp.jsonl"), "mbpp");
    expect(variant).toBe("full");
    expect(items).toHaveLength(500);
    expect(Math.min(...ids(items))).toBe(11);
    expect(Math.max(...ids(items))).toBe(510);
  });

  it("sanitized-mbpp.json (427) is cut to its test split (257)", async () => {
    const { items } = await open(fixtureDataset("sanitized-mbpp.json"), "mbpp", "sanitized");
    expect(items).toHaveLength(257);
    expect(ids(items).every((id) => id >= 11 && id <= 510)).toBe(true);
  });

  it("a file of the other MBPP variant is refused, naming the variant it holds", async () => {
    await expect(open(fixtureDataset("mbpp.jsonl"), "mbpp", "sanitized")).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/mbpp\.jsonl\.gz is not a sanitized MBPP dataset.*variant "full"/),
    });
    await expect(open(fixtureDataset("sanitized-mbpp.json"), "mbpp")).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/is not a full MBPP dataset.*variant "sanitized"/),
    });
  });

  it("another benchmark's file is invalid_request saying what the rows need, not raw zod issues", async () => {
    await expect(open(fixtureDataset("HumanEval.jsonl.gz"), "gsm8k")).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining(
        "HumanEval.jsonl.gz is not a GSM8K dataset (rows need question and answer",
      ),
    });
    await expect(open(fixtureDataset("gsm8k-test.jsonl"), "mmlu")).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("is not a MMLU (test) dataset"),
    });
  });

  it("a file of another split or a cut copy (GSM8K ids are row numbers) is refused; the whole test split runs", async () => {
    const cut = path.join(work, "gsm8k-first-100.jsonl");
    const rows = readFixtureJsonLines("gsm8k-test.jsonl");
    fs.writeFileSync(
      cut,
      rows
        .slice(0, 100)
        .map((row) => JSON.stringify(row))
        .join("\n"),
    );
    await expect(open(cut, "gsm8k")).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringMatching(/holds 100 rows; GSM8K on the Hub \(openai\/gsm8k\) has 1319/),
    });
    expect((await open(fixtureDataset("gsm8k-test.jsonl"), "gsm8k")).items).toHaveLength(1319);
    expect((await open(fixtureDataset("HumanEval.jsonl.gz"), "humaneval")).items).toHaveLength(164);
  });

  it("a row of the right fields but the wrong types is invalid_request naming the field", async () => {
    const odd = path.join(work, "gsm8k-odd.jsonl");
    const rows = readFixtureJsonLines("gsm8k-test.jsonl");
    rows[7] = { question: 42, answer: "#### 1" };
    fs.writeFileSync(odd, rows.map((row) => JSON.stringify(row)).join("\n"));
    await expect(open(odd, "gsm8k")).rejects.toMatchObject({
      code: "invalid_request",
      message: expect.stringContaining("The gsm8k dataset has a row Perch cannot read (question:"),
    });
  });

  it("a missing or unreadable file is the --dataset path's fault, whatever its extension", async () => {
    const directory = path.join(work, "folder.jsonl.gz");
    fs.mkdirSync(directory);
    for (const name of ["nope.jsonl.gz", "nope.json.gz", "nope.jsonl", "nope.json"])
      await expect(open(path.join(work, name), "gsm8k"), name).rejects.toMatchObject({
        code: "not_found",
        param: "dataset",
        message: expect.stringContaining("cannot be read (ENOENT"),
      });
    await expect(open(directory, "gsm8k")).rejects.toMatchObject({
      code: "invalid_request",
      param: "dataset",
      message: expect.stringContaining("check the --dataset path"),
    });
  });

  it("a .gz file that is not gzip, or is cut short, is invalid_request, not an internal error", async () => {
    const whole = fs.readFileSync(fixtureDataset("gsm8k-test.jsonl"));
    const cases: [string, Buffer, RegExp][] = [
      [
        "plain.jsonl.gz",
        Buffer.from('{"question": "q", "answer": "#### 1"}\n'),
        /is not a readable gzip file \(incorrect header check\)/,
      ],
      ["cut.jsonl.gz", whole.subarray(0, 20_000), /is not a readable gzip file \(cut short\)/],
      ["plain.json.gz", Buffer.from("[]"), /is not a readable gzip file \(incorrect header check\)/],
      ["cut.json.gz", whole.subarray(0, 20_000), /is not a readable gzip file \(cut short\)/],
    ];
    for (const [name, bytes, message] of cases) {
      const file = path.join(work, name);
      fs.writeFileSync(file, bytes);
      await expect(open(file, "gsm8k"), name).rejects.toMatchObject({
        code: "invalid_request",
        param: "dataset",
        message: expect.stringMatching(message),
      });
    }
  });

  it("a .parquet file that is not Parquet, or is cut short, is invalid_request naming the file", async () => {
    const rows = readFixtureJsonLines("gsm8k-test.jsonl").slice(0, 50);
    const whole = path.join(work, "whole.parquet");
    parquetWriteFile({
      filename: whole,
      columnData: ["question", "answer"].map((name) => ({ name, data: rows.map((row) => row[name]) })),
    });
    const bytes = fs.readFileSync(whole);
    const cases: [string, Buffer][] = [
      ["text.parquet", Buffer.from('{"question": "q", "answer": "#### 1"}\n')],
      ["cut.parquet", bytes.subarray(0, Math.floor(bytes.length / 2))],
      ["zeros.parquet", Buffer.alloc(bytes.length)],
    ];
    for (const [name, content] of cases) {
      const file = path.join(work, name);
      fs.writeFileSync(file, content);
      await expect(open(file, "gsm8k"), name).rejects.toMatchObject({
        code: "invalid_request",
        param: "dataset",
        message: expect.stringContaining(`${file} is not a readable Parquet file (`),
      });
    }
  });

  it("wholeFile (eval score: ids named line by line) keeps every row, still of the right kind", async () => {
    const whole = new LocalFileDatasetReader(fixtureDataset("mbpp.jsonl"), { wholeFile: true });
    const source = createBenchmarkSource({ datasets: whole, sandbox: async () => ({}) as CodeSandbox });
    const opened = await source.open("mbpp", { sampleSize: 0, signal: new AbortController().signal });
    expect(opened.items).toHaveLength(974);
    await expect(
      source.open("mbpp", { sampleSize: 0, variant: "sanitized", signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: "invalid_request" });
  });
});
