import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import zlib from "node:zlib";
import { asyncBufferFromFile, parquetReadObjects } from "hyparquet";
import { PerchError } from "../../base/PerchError.js";
import type { DatasetRow } from "./DatasetReader.js";

/**
 * A compressed file that is not gzip, or is cut short, is the file's fault (zlib's `Z_DATA_ERROR`,
 * `Z_BUF_ERROR`, ...): `invalid_request` saying so, not an internal error.
 */
function notGzip(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (typeof code !== "string" || !code.startsWith("Z_")) return error;
  const reason = (error as Error).message;
  return new PerchError(
    "invalid_request",
    `${file} is not a readable gzip file (${reason === "unexpected end of file" ? "cut short" : reason}).`,
  );
}

async function readJsonLines(file: string): Promise<DatasetRow[]> {
  const rows: DatasetRow[] = [];
  let lineNumber = 0;
  const take = (line: string) => {
    lineNumber++;
    if (!line.trim()) return;
    try {
      rows.push(JSON.parse(line) as DatasetRow);
    } catch {
      throw new PerchError("invalid_request", `${file}:${lineNumber} is not JSON`);
    }
  };
  // One pipeline: an error of any stage (the file missing or a directory, bad gzip data) rejects
  // it, where `raw.pipe(gunzip)` left the file stream's 'error' with no listener (a crash).
  const consume = async (source: AsyncIterable<Buffer>) => {
    const decoder = new StringDecoder("utf8");
    let pending = "";
    for await (const chunk of source) {
      const parts = (pending + decoder.write(chunk)).split("\n");
      pending = parts.pop()!;
      for (const part of parts) take(part);
    }
    take(pending + decoder.end());
  };
  const raw = fs.createReadStream(file);
  await (file.endsWith(".gz") ? pipeline(raw, zlib.createGunzip(), consume) : pipeline(raw, consume)).catch(
    (error: unknown) => {
      throw notGzip(file, error);
    },
  );
  return rows;
}

async function readJson(file: string): Promise<DatasetRow[]> {
  const bytes = await fs.promises.readFile(file);
  let text: string;
  try {
    text = (file.endsWith(".gz") ? zlib.gunzipSync(bytes) : bytes).toString("utf8");
  } catch (error) {
    throw notGzip(file, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PerchError("invalid_request", `${file} is not JSON`);
  }
  if (!Array.isArray(value)) throw new PerchError("invalid_request", `${file} is not a JSON array of rows`);
  return value as DatasetRow[];
}

/** The rows of one dataset file, by its extension: `.parquet`, `.jsonl[.gz]`, `.json[.gz]`. */
export async function readDatasetFile(file: string): Promise<DatasetRow[]> {
  const name = file.toLowerCase();
  if (name.endsWith(".parquet")) {
    const buffer = await asyncBufferFromFile(file);
    // hyparquet's own errors (no system `code`) are the file's: not Parquet, cut short, corrupt.
    const rows = await parquetReadObjects({ file: buffer }).catch((error: unknown) => {
      if (typeof (error as NodeJS.ErrnoException | null)?.code === "string") throw error;
      throw new PerchError(
        "invalid_request",
        `${file} is not a readable Parquet file (${error instanceof Error ? error.message : String(error)}).`,
      );
    });
    // BigInt columns (int64) come back as bigint; rows are plain data for zod, so numbers.
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
