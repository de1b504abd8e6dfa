/** Where one benchmark variant's rows live on the Hugging Face Hub (see SOURCES.md). */
export interface DatasetSource {
  /** Dataset repository, e.g. `openai/openai_humaneval`. */
  repo: string;
  /** Commit the files are read at: pinned, so scores stay comparable. */
  revision: string;
  /** Files whose rows are concatenated in this order (`.parquet`, `.jsonl`, `.jsonl.gz`, `.json`). */
  files: readonly string[];
}
