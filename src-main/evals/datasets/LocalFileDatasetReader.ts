import path from "node:path";
import { PerchError } from "../../base/PerchError.js";
import { errorMessage } from "../../base/describeError.js";
import type { DatasetReader, DatasetRow } from "./DatasetReader.js";
import type { DatasetSource } from "./DatasetSource.js";
import { hubSources } from "./hubSources.js";
import { readDatasetFile } from "./readDatasetFile.js";

export interface LocalFileDatasetReaderOptions {
  /**
   * Every row of the file, not only the Hub split's: for rescoring the ids a caller names
   * (`perch eval score`) and for checks over a whole upstream file. The file must still be the
   * asked source's kind of data. Defaults to `false`: the rows of the split the Hub source holds,
   * and exactly as many (`perch eval run --dataset`: its score is stored as the Hub's would be).
   */
  wholeFile?: boolean;
}

const listed = (names: readonly string[]) =>
  names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;

const hasColumns = (row: DatasetRow | undefined, columns: readonly string[]) =>
  typeof row === "object" && row !== null && columns.every((column) => row[column] !== undefined);

/** Another variant of the same Hub repository whose rows the file does hold (full vs sanitized MBPP). */
function otherVariant(source: DatasetSource, row: DatasetRow | undefined): string | undefined {
  for (const variants of Object.values(hubSources)) {
    for (const [variant, other] of Object.entries(variants)) {
      if (other.repo === source.repo && other.title !== source.title && hasColumns(row, other.columns)) {
        return ` It holds ${other.title} rows: choose the variant "${variant}".`;
      }
    }
  }
  return undefined;
}

/**
 * Reads one local file in place of a Hub source (`perch eval run --dataset FILE`, `perch eval
 * score --dataset FILE`). A file of another dataset, or of another variant, is refused
 * (`invalid_request`), and so is one holding another split than the Hub source's: its score
 * would be stored under the same benchmark and variant as a Hub run's.
 */
export class LocalFileDatasetReader implements DatasetReader {
  #rows: Promise<DatasetRow[]> | null = null;

  constructor(
    readonly file: string,
    private readonly options: LocalFileDatasetReaderOptions = {},
  ) {}

  async rows(source: DatasetSource): Promise<DatasetRow[]> {
    this.#rows ??= readDatasetFile(this.file).catch((error: unknown) => {
      // The file the user named (`--dataset`): missing or unreadable is theirs to fix, not ours.
      const errno = (error as NodeJS.ErrnoException).code;
      if (errno === "ENOENT" || errno === "EISDIR" || errno === "EACCES" || errno === "ENOTDIR") {
        throw new PerchError(
          errno === "ENOENT" ? "not_found" : "invalid_request",
          `The dataset file ${this.file} cannot be read (${errorMessage(error)}): check the --dataset path.`,
          { param: "dataset" },
        );
      }
      // A file that is not what its name says (bad gzip, not JSON): the same field to fix.
      if (error instanceof PerchError && error.param === null)
        throw new PerchError(error.code, error.message, { param: "dataset" });
      throw error;
    });
    const rows = await this.#rows;
    const name = path.basename(this.file);
    const stray = rows.findIndex((row) => !hasColumns(row, source.columns));
    if (stray >= 0 || rows.length === 0) {
      throw new PerchError(
        "invalid_request",
        `${name} is not a ${source.title} dataset (rows need ${listed(source.columns)}` +
          `${stray >= 0 ? `; row ${stray + 1} does not have them` : "; the file has no rows"}).` +
          (otherVariant(source, rows[stray]) ?? ""),
        { param: "dataset" },
      );
    }
    if (this.options.wholeFile) return rows;
    const split = source.inSplit ? rows.filter(source.inSplit) : rows;
    if (source.rowCount !== undefined && split.length !== source.rowCount) {
      const kept = source.inSplit ? ` of the Hub's split (${split.length} of its ${rows.length})` : "";
      throw new PerchError(
        "invalid_request",
        `${name} holds ${split.length} rows${kept}; ${source.title} on the Hub (${source.repo}) has ` +
          `${source.rowCount}. Give the whole split the Hub source holds: another split or a cut ` +
          "copy would be stored as this benchmark's score.",
        { param: "dataset" },
      );
    }
    return split;
  }
}
