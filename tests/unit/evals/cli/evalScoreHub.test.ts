import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvalScore } from "../../../../src-main/cli/evalScoreCommand.js";
import { hubSource } from "../../../../src-main/evals/datasets/hubSources.js";
import { FakeHub } from "../../../helpers/fakeHub.js";
import { readFixtureJsonLines } from "../../../helpers/fixtureDatasets.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-eval-score-hub-"));
let hub: FakeHub;

beforeAll(async () => {
  // GSM8K's test split at its pinned path, served by a local Hub (the "mirror").
  const gsm8k = hubSource("gsm8k", "zero_shot");
  const rows = readFixtureJsonLines<{ question: string; answer: string }>("gsm8k-test.jsonl");
  const file = path.join(work, "repo", gsm8k.files[0]);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  parquetWriteFile({
    filename: file,
    columnData: [
      { name: "question", data: rows.map((row) => row.question) },
      { name: "answer", data: rows.map((row) => row.answer) },
    ],
  });
  hub = await new FakeHub().listen();
  hub.addRepo({ id: gsm8k.repo, dir: path.join(work, "repo"), type: "dataset", sha: gsm8k.revision });
});

afterAll(async () => {
  await hub.close();
  fs.rmSync(work, { recursive: true, force: true });
});

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe("perch eval score without --dataset", () => {
  it("downloads from the hf_endpoint in the settings, as eval run does (not huggingface.co)", async () => {
    const base = path.join(work, "base");
    fs.mkdirSync(base, { recursive: true });
    fs.writeFileSync(path.join(base, "settings.json"), JSON.stringify({ hf_endpoint: hub.url }));
    const responses = path.join(work, "responses.jsonl");
    const [first] = readFixtureJsonLines<{ answer: string }>("gsm8k-test.jsonl");
    fs.writeFileSync(responses, `${JSON.stringify({ id: 0, response: first.answer })}\n`);
    const stdout = sink();
    const stderr = sink();
    const code = await runEvalScore(
      { benchmark: "gsm8k", responses, basePath: base, json: true },
      { stdout: stdout.stream, stderr: stderr.stream },
    );
    expect(stderr.text()).toBe("1 passed, 0 failed\n");
    expect(code).toBe(0);
    expect(
      hub.requests.some((request) => request.path.includes(hubSource("gsm8k", "zero_shot").revision)),
    ).toBe(true);
  });
});
