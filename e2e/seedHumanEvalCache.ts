import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { parquetWriteFile } from "hyparquet-writer";
import { hubSource } from "../src-main/evals/datasets/hubSources.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Nothing can be downloaded here, so the e2e server finds HumanEval already in its dataset cache:
 * the real rows (`../shared/datasets/HumanEval.jsonl.gz`) written as the Hub's parquet file, at
 * the path the Hub cache would have downloaded it to (`<base>/datasets/<repo>/<rev>/<file>`).
 */
export function seedHumanEvalCache(basePath: string): void {
  const source = hubSource("humaneval", "test");
  const shared = path.resolve(
    repoRoot,
    process.env.PERCH_SHARED_DATASETS ?? "../shared/datasets",
    "HumanEval.jsonl.gz",
  );
  const rows = zlib
    .gunzipSync(fs.readFileSync(shared))
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, string>);
  const columns = ["task_id", "prompt", "canonical_solution", "test", "entry_point"];
  for (const file of source.files) {
    const target = path.join(
      basePath,
      "datasets",
      ...source.repo.split("/"),
      encodeURIComponent(source.revision),
      ...file.split("/"),
    );
    fs.mkdirSync(path.dirname(target), { recursive: true });
    parquetWriteFile({
      filename: target,
      columnData: columns.map((name) => ({ name, data: rows.map((row) => row[name]) })),
    });
  }
}
