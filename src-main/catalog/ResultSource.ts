import type { ResultChange } from "../storage/ResultStore.js";

/** The part of a `ResultStore` the catalog reads for its summaries. */
export interface ResultSource<T> {
  list(filter?: { model_id?: string }): Promise<T[]>;
  onChange(listener: (change: ResultChange) => void): () => void;
  /** Catches up with results another process saved or deleted (their change events fire). */
  refresh?(): Promise<void>;
}
