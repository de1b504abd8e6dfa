import type { DatasetSource } from "./DatasetSource.js";

/** One dataset row as read from parquet, JSONL or JSON. */
export type DatasetRow = Record<string, unknown>;

/** Reads the rows of a dataset source: from the Hub cache, or from one local file. */
export interface DatasetReader {
  /** `offline`: only what is cached already; a file that would be downloaded is a `not_found`. */
  rows(source: DatasetSource, signal?: AbortSignal, options?: { offline?: boolean }): Promise<DatasetRow[]>;
}
