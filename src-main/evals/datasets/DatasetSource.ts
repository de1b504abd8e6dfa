import type { DatasetRow } from "./DatasetReader.js";

/** Where one benchmark variant's rows live on the Hugging Face Hub (see SOURCES.md). */
export interface DatasetSource {
  /** Dataset repository, e.g. `openai/openai_humaneval`. */
  repo: string;
  /** Commit the files are read at: pinned, so scores stay comparable. */
  revision: string;
  /** Files whose rows are concatenated in this order (`.parquet`, `.jsonl`, `.jsonl.gz`, `.json`). */
  files: readonly string[];
  /** What the rows are, in messages: `GSM8K`, `sanitized MBPP`. */
  title: string;
  /** Fields every row has: a local file (`--dataset`) whose rows lack one is another dataset. */
  columns: readonly string[];
  /**
   * Rows of the split the files hold. A local file standing in for this source must hold the
   * same number (after `inSplit`): else it is another split (train, validation) or a cut copy,
   * and its score would be stored as this one's. Unset where the count is not fixed (LiveCodeBench).
   */
  rowCount?: number;
  /**
   * Whether a row of a whole upstream file belongs to the split the Hub files hold (`mbpp.jsonl`
   * holds all 974 tasks; the Hub's test split is task_id 11–510). Defaults to every row.
   */
  inSplit?: (row: DatasetRow) => boolean;
}
