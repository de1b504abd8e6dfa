import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanEvalBenchmark } from "../../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import { gsm8kBenchmark } from "../../../../src-main/evals/benchmarks/gsm8k/gsm8kBenchmark.js";
import { mbppBenchmark } from "../../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import { HubDatasetCache } from "../../../../src-main/evals/datasets/HubDatasetCache.js";
import { hubSource } from "../../../../src-main/evals/datasets/hubSources.js";
import { FakeHub } from "../../../helpers/fakeHub.js";
import { fixtureDataset } from "../../../helpers/fixtureDatasets.js";

type Row = Record<string, unknown>;

const readJsonLines = (file: string): Row[] => {
  const bytes = fs.readFileSync(file);
  const text = (file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes).toString("utf8");
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Row);
};

/** Writes rows as the Hub's parquet does: strings, int64 ids, list<string> columns. */
function writeParquet(file: string, rows: Row[], columns: string[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  parquetWriteFile({
    filename: file,
    columnData: columns.map((name) => ({
      name,
      data: rows.map((row) => (typeof row[name] === "number" ? BigInt(row[name] as number) : row[name])),
    })),
  });
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "perch-hub-datasets-"));
const repos = path.join(work, "repos");
let hub: FakeHub;

beforeAll(async () => {
  // The real layouts at the pinned revisions, filled with the real rows of tests/fixtures/datasets.
  const humanEval = hubSource("humaneval", "test");
  writeParquet(
    path.join(repos, "humaneval", humanEval.files[0]),
    readJsonLines(fixtureDataset("HumanEval.jsonl.gz")),
    ["task_id", "prompt", "canonical_solution", "test", "entry_point"],
  );
  const gsm8k = hubSource("gsm8k", "zero_shot");
  writeParquet(path.join(repos, "gsm8k", gsm8k.files[0]), readJsonLines(fixtureDataset("gsm8k-test.jsonl")), [
    "question",
    "answer",
  ]);
  const mbpp = hubSource("mbpp", "full");
  const testSplit = readJsonLines(fixtureDataset("mbpp.jsonl")).filter(
    (row) => (row.task_id as number) >= 11 && (row.task_id as number) <= 510,
  );
  writeParquet(path.join(repos, "mbpp", mbpp.files[0]), testSplit, [
    "task_id",
    "text",
    "code",
    "test_list",
    "test_setup_code",
  ]);
  hub = await new FakeHub().listen();
  hub.addRepo({
    id: humanEval.repo,
    dir: path.join(repos, "humaneval"),
    type: "dataset",
    sha: humanEval.revision,
  });
  hub.addRepo({ id: gsm8k.repo, dir: path.join(repos, "gsm8k"), type: "dataset", sha: gsm8k.revision });
  hub.addRepo({ id: mbpp.repo, dir: path.join(repos, "mbpp"), type: "dataset", sha: mbpp.revision });
});

afterAll(async () => {
  await hub.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("HubDatasetCache against a local Hub", () => {
  const cacheDir = path.join(work, "cache");

  it("downloads the pinned parquet files on first use and reads the rows", async () => {
    const datasets = new HubDatasetCache({ dir: cacheDir, hubUrl: hub.url });
    const [humanEval, gsm8k, mbpp] = await Promise.all([
      humanEvalBenchmark.loadItems({ datasets }),
      gsm8kBenchmark.loadItems({ datasets }),
      mbppBenchmark.loadItems({ datasets }),
    ]);
    expect([humanEval.length, gsm8k.length, mbpp.length]).toEqual([164, 1319, 500]);
    expect(humanEval[0]).toMatchObject({ id: "HumanEval/0", entryPoint: "has_close_elements" });
    expect(mbpp[0]).toMatchObject({
      id: "11",
      tests: expect.arrayContaining([expect.stringContaining("remove_Occ")]),
    });
    const source = hubSource("humaneval", "test");
    expect(fs.existsSync(path.join(cacheDir, source.repo, source.revision, source.files[0]))).toBe(true);
    expect(hub.requests.some((request) => request.path.includes(`/resolve/${source.revision}/`))).toBe(true);
  });

  it("reads from the cache offline, and says so when a file was never downloaded", async () => {
    const offline = new HubDatasetCache({ dir: cacheDir, hubUrl: "http://127.0.0.1:9", offline: true });
    expect(await humanEvalBenchmark.loadItems({ datasets: offline, limit: 10 })).toHaveLength(10);
    await expect(mbppBenchmark.loadItems({ datasets: offline, variant: "sanitized" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("leaves no half file when a download is cut, and succeeds on the next try", async () => {
    const dir = path.join(work, "cut");
    const datasets = new HubDatasetCache({ dir, hubUrl: hub.url });
    hub.dropNextDownloadAfter(10_000);
    await expect(gsm8kBenchmark.loadItems({ datasets })).rejects.toMatchObject({ code: "upstream_error" });
    const source = hubSource("gsm8k", "zero_shot");
    const folder = path.join(dir, source.repo, source.revision, path.dirname(source.files[0]));
    expect(fs.existsSync(folder) ? fs.readdirSync(folder) : []).toEqual([]);
    expect(await gsm8kBenchmark.loadItems({ datasets })).toHaveLength(1319);
  });

  it("a cached file that cannot be read (cut to 1000 bytes) is set aside and downloaded again, once", async () => {
    const dir = path.join(work, "corrupt");
    const datasets = new HubDatasetCache({ dir, hubUrl: hub.url });
    expect(await gsm8kBenchmark.loadItems({ datasets })).toHaveLength(1319);
    const source = hubSource("gsm8k", "zero_shot");
    const cached = path.join(dir, source.repo, source.revision, source.files[0]);
    fs.truncateSync(cached, 1000);
    // A fresh cache object, as after a restart.
    const later = new HubDatasetCache({ dir, hubUrl: hub.url });
    expect(await gsm8kBenchmark.loadItems({ datasets: later })).toHaveLength(1319);
    expect(fs.statSync(`${cached}.corrupt`).size).toBe(1000);
    expect(fs.statSync(cached).size).toBeGreaterThan(1000);

    fs.truncateSync(cached, 1000);
    const offline = new HubDatasetCache({ dir, hubUrl: hub.url, offline: true });
    await expect(gsm8kBenchmark.loadItems({ datasets: offline })).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("could not be read"),
    });
    expect(await gsm8kBenchmark.loadItems({ datasets: later })).toHaveLength(1319);
  });

  it("a file the Hub serves unreadable is an upstream_error naming the file and the mirror", async () => {
    const broken = path.join(repos, "broken");
    const source = { ...hubSource("gsm8k", "zero_shot"), repo: "acme/broken" };
    fs.mkdirSync(path.join(broken, path.dirname(source.files[0])), { recursive: true });
    fs.writeFileSync(path.join(broken, source.files[0]), Buffer.alloc(1000, 7));
    hub.addRepo({ id: source.repo, dir: broken, type: "dataset", sha: source.revision });
    const datasets = new HubDatasetCache({ dir: path.join(work, "broken-cache"), hubUrl: hub.url });
    await expect(datasets.rows(source)).rejects.toMatchObject({
      code: "upstream_error",
      message: expect.stringContaining(
        `acme/broken@${source.revision}/${source.files[0]} as downloaded from ${hub.url}`,
      ),
    });
  });

  it("a file missing on the Hub is not_found; a repo id that climbs out of the cache is refused", async () => {
    const datasets = new HubDatasetCache({ dir: path.join(work, "missing"), hubUrl: hub.url });
    const source = hubSource("humaneval", "test");
    await expect(datasets.rows({ ...source, files: ["nope/test.parquet"] })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(datasets.rows({ ...source, repo: "../../etc" })).rejects.toMatchObject({
      code: "invalid_id",
    });
  });
});
