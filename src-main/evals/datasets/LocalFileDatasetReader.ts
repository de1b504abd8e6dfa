import type { DatasetReader, DatasetRow } from "./DatasetReader.js";
import { readDatasetFile } from "./readDatasetFile.js";

/** Reads one local file whatever source is asked for (`perch eval score --dataset FILE`). */
export class LocalFileDatasetReader implements DatasetReader {
  #rows: Promise<DatasetRow[]> | null = null;

  constructor(readonly file: string) {}

  rows(): Promise<DatasetRow[]> {
    this.#rows ??= readDatasetFile(this.file);
    return this.#rows;
  }
}
