import fs from "node:fs";
import readline from "node:readline";
import zlib from "node:zlib";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { PerchError } from "../../base/PerchError.js";
import type { DatasetRow } from "./DatasetReader.js";

async function readJsonLines(file: string): Promise<DatasetRow[]> {
  const raw = fs.createReadStream(file);
  const input = file.endsWith(".gz") ? raw.pipe(zlib.createGunzip()) : raw;
  const rows: DatasetRow[] = [];
  let lineNumber = 0;
  for await (const line of readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    lineNumber++;
    if (!line.trim()) continue;
    try {
      rows.push(JSON.parse(line) as DatasetRow);
    } catch {
      throw new PerchError("invalid_request", `${file}:${lineNumber} is not JSON`);
    }
  }
  return rows;
}

async function readJson(file: string): Promise<DatasetRow[]> {
  const bytes = await fs.promises.readFile(file);
  const text = (file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes).toString("utf8");
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value)) throw new PerchError("invalid_request", `${file} is not a JSON array of rows`);
  return value as DatasetRow[];
}

/** The rows of one dataset file, by its extension: `.parquet`, `.jsonl[.gz]`, `.json[.gz]`. */
export async function readDatasetFile(file: string): Promise<DatasetRow[]> {
  const name = file.toLowerCase();
  if (name.endsWith(".parquet")) {
    // BigInt columns (int64) come back as bigint; rows are plain data for zod, so numbers.
    const rows = await parquetReadObjects({ file: await asyncBufferFromFile(file) });
    return rows.map(
      (row) =>
        JSON.parse(
          JSON.stringify(row, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value)),
        ) as DatasetRow,
    );
  }
  if (name.endsWith(".jsonl") || name.endsWith(".jsonl.gz")) return readJsonLines(file);
  if (name.endsWith(".json") || name.endsWith(".json.gz")) return readJson(file);
  throw new PerchError("invalid_request", `unsupported dataset file type: ${file}`);
}
