import type { DatasetSource } from "./DatasetSource.js";

/** One dataset row as read from parquet, JSONL or JSON. */
export type DatasetRow = Record<string, unknown>;

/** Reads the rows of a dataset source: from the Hub cache, or from one local file. */
export interface DatasetReader {
  rows(source: DatasetSource, signal?: AbortSignal): Promise<DatasetRow[]>;
}
