import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import type { ModelFile } from "../../src-shared/contracts/results.js";

/** The file a catalog entry holds now, as results record it (`model_file`). */
export function modelFileOf(entry: Pick<CatalogEntry, "revision" | "file_oid" | "size_bytes">): ModelFile {
  return { revision: entry.revision, file_oid: entry.file_oid, size_bytes: entry.size_bytes };
}
