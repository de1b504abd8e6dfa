import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { accuracyResultSchema, type AccuracyResult } from "../../../../src-shared/contracts/accuracy.js";
import { createEvalRunCommand, type EvalRunCore } from "../../../../src-main/cli/evalRunCommand.js";
import type { CoreOptions } from "../../../../src-main/core/createCore.js";
import { createEvalQueue } from "../../../../src-main/evals/queue/createEvalQueue.js";
import { LocalFileDatasetReader } from "../../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import type { DatasetReader } from "../../../../src-main/evals/datasets/DatasetReader.js";
import { SettingsStore } from "../../../../src-main/settings/SettingsStore.js";
import type {
  GenerationRequest,
  GenerationResult,
} from "../../../../src-main/scheduler/GenerationRequest.js";
import { fixtureDataset, readFixtureText } from "../../../helpers/fixtureDatasets.js";
import { createFakeEngine, fakeGenerationResult } from "./queueFixture.js";

const gsm8kFile = fixtureDataset("gsm8k-test.jsonl");

function capture() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

interface FakeCoreOptions {
  /** Overrides the core's dataset source (else the `--dataset`/`--offline` options, else the Hub). */
  datasets?: DatasetReader;
  /** Receives every stored result. */
  results?: { add(result: AccuracyResult): Promise<void> };
  modelSampling?: () => Promise<{ temperature: number } | undefined>;
  basePath?: string;
}

/** A model that knows every GSM8K answer, reasons first, and gets every third question wrong. */
function createFakeCore(fakeOptions: FakeCoreOptions = {}) {
  const answers = new Map<string, string>();
  for (const line of readFixtureText("gsm8k-test.jsonl").split("\n").filter(Boolean)) {
    const row = JSON.parse(line) as { question: string; answer: string };
    answers.set(row.question, row.answer.split("####")[1].trim());
  }
  const engine = createFakeEngine();
  const requests: GenerationRequest[] = [];
  let closed = false;
  const basePath = fakeOptions.basePath ?? "/nonexistent-perch-base";
  const generate = async (request: GenerationRequest): Promise<GenerationResult> => {
    const position = requests.push(request);
    await new Promise((resolve) => setImmediate(resolve));
    const messages = request.prompt.kind === "chat" ? request.prompt.messages : [];
    const question = messages.at(-1)!.content.replace(/^Question: /, "");
    const answer = answers.get(question) ?? "0";
    const wrong = position % 3 === 0;
    const text = `<think>Let me work it out.</think>\nThe answer is ${wrong ? Number(answer) + 1 : answer}.`;
    return fakeGenerationResult(request.requestId, text);
  };
  /** Opens the core the way `createCore` would: one eval queue over the fakes and a result store. */
  const createCore = async (_config: unknown, options: CoreOptions): Promise<EvalRunCore> => {
    const saved = new Map<string, AccuracyResult>();
    const settings = new SettingsStore({ basePath });
    const { queue, close } = createEvalQueue({
      generate,
      engine,
      results: {
        add: async (result) => {
          saved.set(result.result_id, result);
          await fakeOptions.results?.add(result);
        },
      },
      modelSampling: fakeOptions.modelSampling ?? (async () => undefined),
      settings,
      datasetsDir: path.join(basePath, "datasets"),
      datasets: fakeOptions.datasets ?? options.evalDatasets,
    });
    return {
      evals: queue,
      accuracyResults: { get: async (resultId) => saved.get(resultId)! },
      settings,
      async close() {
        await close();
        closed = true;
      },
    };
  };
  return { createCore, engine, requests, isClosed: () => closed };
}

describe("perch eval run", () => {
  it("runs a benchmark in process through the queue and prints the stored result", async () => {
    const stored: AccuracyResult[] = [];
    const fake = createFakeCore({
      datasets: new LocalFileDatasetReader(gsm8kFile),
      results: { add: async (result) => void stored.push(result) },
      modelSampling: async () => ({ temperature: 0.8 }),
    });
    const stdout = capture();
    const stderr = capture();
    const command = createEvalRunCommand({
      createCore: fake.createCore,
      findServer: async () => null,
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    await command.parseAsync(
      ["--model", "tiny", "--benchmark", "gsm8k", "--limit", "12", "--batch-size", "4", "--json"],
      { from: "user" },
    );
    expect(process.exitCode ?? 0).toBe(0);
    expect(fake.isClosed()).toBe(true);
    expect(fake.engine.log).toEqual(["load tiny", "suspend tiny", "release tiny"]);

    const printed = JSON.parse(stdout.text()) as AccuracyResult[];
    expect(printed).toEqual(stored);
    const result = accuracyResultSchema.parse(stored[0]);
    expect(result).toMatchObject({
      model_id: "tiny",
      benchmark: "gsm8k",
      variant: "zero_shot",
      batch_size: 4,
      sampling_profile: "deterministic",
      thinking: true,
      status: "completed",
      total: 12,
    });
    // The probe saw reasoning: the first batch ran twice, then the rest once.
    expect(fake.requests).toHaveLength(16);
    expect(result.questions.filter((question) => question.correct)).toHaveLength(result.total - 4);
    expect(result.questions.every((question) => question.response.startsWith("<think>"))).toBe(true);
    expect(result.questions.find((question) => !question.correct)?.failure_type).toBe("wrong_answer");
  });

  it("refuses bad options before opening the core", async () => {
    const stderr = capture();
    let opened = false;
    const command = createEvalRunCommand({
      createCore: async () => {
        opened = true;
        throw new Error("unreachable");
      },
      stderr: stderr.stream,
    });
    command.exitOverride();
    await command.parseAsync(["--model", "m", "--benchmark", "nope"], { from: "user" });
    expect(process.exitCode).toBe(2);
    expect(stderr.text()).toMatch(/Unknown benchmark "nope"\. Known benchmarks: humaneval/);
    expect(opened).toBe(false);
    process.exitCode = 0;
    await expect(
      command.parseAsync(["--model", "m", "--benchmark", "gsm8k", "--batch-size", "3"], { from: "user" }),
    ).rejects.toThrow(/expected one of 1, 2, 4, 8, 16, 32/);
  });

  it("takes benchmark names in any case and suggests the closest for a typo, in plain words", async () => {
    const stderr = capture();
    const command = createEvalRunCommand({
      createCore: async () => {
        throw new Error("unreachable");
      },
      stderr: stderr.stream,
    });
    await command.parseAsync(["--model", "m", "--benchmark", "humaneavl"], { from: "user" });
    expect(process.exitCode).toBe(2);
    expect(stderr.text()).toBe(
      'perch eval run: Unknown benchmark "humaneavl". Did you mean "humaneval"? Known benchmarks: ' +
        "humaneval, mbpp, livecodebench, gsm8k, mmlu, mmlu_pro, arc_challenge, hellaswag, truthfulqa_mc1, " +
        "winogrande. (invalid_request)\n",
    );
    process.exitCode = 0;
  });

  it("reads the dataset from --dataset FILE and accepts GSM8K in capitals", async () => {
    const stored: AccuracyResult[] = [];
    const fake = createFakeCore({ results: { add: async (result) => void stored.push(result) } });
    const stdout = capture();
    const command = createEvalRunCommand({
      createCore: fake.createCore,
      findServer: async () => {
        throw new Error("--dataset runs here: no server lookup");
      },
      stdout: stdout.stream,
      stderr: capture().stream,
    });
    await command.parseAsync(
      ["--model", "tiny", "--benchmark", "GSM8K", "--limit", "3", "--dataset", gsm8kFile],
      {
        from: "user",
      },
    );
    expect(process.exitCode ?? 0).toBe(0);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ benchmark: "gsm8k", total: 3 });
    expect(stdout.text()).toMatch(/^gsm8k \(zero_shot\): \d\/3 = /);
  });

  it("names the Hub and the ways around it when the dataset cannot be downloaded", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-eval-offline-"));
    const fake = createFakeCore({ basePath: base });
    const stderr = capture();
    const previous = process.env.HF_ENDPOINT;
    process.env.HF_ENDPOINT = "http://127.0.0.1:9";
    try {
      const command = createEvalRunCommand({
        createCore: fake.createCore,
        findServer: async () => null,
        stdout: capture().stream,
        stderr: stderr.stream,
      });
      await command.parseAsync(["--model", "tiny", "--benchmark", "gsm8k", "--limit", "2"], { from: "user" });
      expect(process.exitCode).toBe(1);
      expect(stderr.text()).toContain("The Hugging Face Hub (http://127.0.0.1:9) could not be reached");
      expect(stderr.text()).toContain("--dataset FILE");
      expect(stderr.text()).toContain("HF_ENDPOINT");
      expect(stderr.text()).toMatch(/\(upstream_error\)\n$/);
    } finally {
      if (previous === undefined) delete process.env.HF_ENDPOINT;
      else process.env.HF_ENDPOINT = previous;
      fs.rmSync(base, { recursive: true, force: true });
      process.exitCode = 0;
    }
  });
});
