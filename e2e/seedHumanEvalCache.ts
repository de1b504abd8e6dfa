import fs from "node:fs";
import path from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { hubSource } from "../src-main/evals/datasets/hubSources.js";
import { readFixtureJsonLines } from "../tests/helpers/fixtureDatasets.js";

/**
 * Nothing can be downloaded here, so the e2e server finds HumanEval already in its dataset cache:
 * the real rows (`tests/fixtures/datasets/HumanEval.jsonl.gz`) written as the Hub's parquet file, at
 * the path the Hub cache would have downloaded it to (`<base>/datasets/<repo>/<rev>/<file>`).
 */
export function seedHumanEvalCache(basePath: string): void {
  const source = hubSource("humaneval", "test");
  const rows = readFixtureJsonLines<Record<string, string>>("HumanEval.jsonl.gz");
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
