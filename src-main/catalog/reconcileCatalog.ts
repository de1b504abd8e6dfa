import path from "node:path";
import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import { ownEntry } from "../storage/ownEntry.js";
import type { DiscoveredModel } from "./DiscoveredModel.js";

export interface Reconciled {
  models: Record<string, CatalogEntry>;
  /** Ids found for the first time. */
  added: string[];
  /** Ids whose files disappeared in this scan (entries kept, marked `missing`). */
  missing: string[];
  /** Ids whose GGUF header must be (re)read: new, or size/mtime changed since it was read. */
  stale: string[];
}

/**
 * Merges a disk scan of `scannedDirs` into the catalog: new models are added, known ones get their
 * paths and sizes refreshed (keeping source, revision and check history), vanished ones are marked
 * missing — never deleted, so their benchmark history and settings stay attached. With
 * `onlyIn` (a one-off `--models-dir` view), entries of other folders are kept as they are: not
 * scanned is not gone.
 */
export function reconcileCatalog(
  existing: Readonly<Record<string, CatalogEntry>>,
  discovered: readonly DiscoveredModel[],
  onlyIn?: readonly string[],
  now = new Date().toISOString(),
): Reconciled {
  const models: Record<string, CatalogEntry> = {};
  const added: string[] = [];
  const stale: string[] = [];
  const seen = new Set<string>();
  for (const found of discovered) {
    seen.add(found.id);
    const previous = ownEntry(existing, found.id);
    const entry = previous ? refresh(previous, found) : create(found, now);
    if (!previous) added.push(found.id);
    if (
      !previous ||
      previous.size_bytes !== found.sizeBytes ||
      previous.mtime_ms !== found.mtimeMs ||
      !entry.gguf
    ) {
      stale.push(found.id);
    }
    models[found.id] = entry;
  }
  const missing: string[] = [];
  for (const [id, entry] of Object.entries(existing)) {
    if (seen.has(id)) continue;
    if (onlyIn && !inModelsDirs(entry, onlyIn)) {
      models[id] = entry;
      continue;
    }
    if (!entry.missing) missing.push(id);
    models[id] = { ...entry, missing: true };
  }
  return { models, added, missing, stale };
}

function create(found: DiscoveredModel, now: string): CatalogEntry {
  const source = found.hf ? "hf" : found.layout === "file" ? "local" : "unknown";
  return {
    id: found.id,
    path: found.path,
    files: found.files,
    models_dir: found.modelsDir,
    missing: false,
    source,
    repo: found.hf?.repo ?? null,
    remote_path: found.hf?.remotePath ?? null,
    revision: found.hf?.revision ?? null,
    file_oid: found.hf?.fileOid ?? null,
    discovered_at: now,
    downloaded_at: null,
    updated_at: null,
    last_checked_at: null,
    remote_revision: null,
    update_status: source === "local" ? "not_applicable" : "unknown",
    update_error: null,
    size_bytes: found.sizeBytes,
    mtime_ms: found.mtimeMs,
    gguf: null,
    gguf_error: null,
  };
}

function refresh(previous: CatalogEntry, found: DiscoveredModel): CatalogEntry {
  const entry: CatalogEntry = {
    ...previous,
    path: found.path,
    files: found.files,
    models_dir: found.modelsDir,
    missing: false,
    size_bytes: found.sizeBytes,
    mtime_ms: found.mtimeMs,
  };
  const rewritten = previous.size_bytes !== found.sizeBytes || previous.mtime_ms !== found.mtimeMs;
  if (rewritten) {
    entry.gguf = null;
    entry.gguf_error = null;
  }
  // A newer snapshot in the Hugging Face cache is what the file now is.
  if (
    found.hf &&
    (previous.source === "hf" || previous.source === "unknown") &&
    previous.revision !== found.hf.revision
  ) {
    entry.source = "hf";
    entry.repo = found.hf.repo;
    entry.remote_path = found.hf.remotePath;
    entry.revision = found.hf.revision;
    entry.file_oid = found.hf.fileOid;
    delete entry.file_oids;
    entry.update_status = "unknown";
  } else if (rewritten && !found.hf && (previous.revision !== null || previous.file_oid !== null)) {
    forgetProvenance(entry);
  }
  return entry;
}

/** Why a hub model's update state is unknown once its file changed on disk (`forgetProvenance`). */
export const changedOnDiskReason =
  "The file changed on disk since it was downloaded (its size or modification time differ): Perch no longer knows which commit it is. Pull the model again to get the hub's file.";

/**
 * The file was rewritten behind the catalog's back (replaced, edited, copied over) and the scan
 * knows nothing of the new bytes: the commit and content id recorded at download no longer
 * describe them, so they go (results then compare by size, `/api/tags` hashes id, size and time,
 * and an update check answers `unknown`, never `up_to_date`). Source and repo stay: a pull of the
 * same repo brings the hub's file back and records it again. A scan does not read the bytes (seconds
 * per GB); for a file whose only change is its time, `ModelCatalog` hashes it once in the background
 * and gives the provenance back when the content is still the downloaded one.
 */
function forgetProvenance(entry: CatalogEntry): void {
  entry.revision = null;
  entry.file_oid = null;
  delete entry.file_oids;
  entry.update_status = entry.source === "local" ? "not_applicable" : "unknown";
  entry.update_error = entry.source === "local" ? null : changedOnDiskReason;
}

/** Whether the entry was found in one of these models folders. */
export function inModelsDirs(entry: Pick<CatalogEntry, "models_dir">, dirs: readonly string[]): boolean {
  const own = path.resolve(entry.models_dir);
  return dirs.some((dir) => path.resolve(dir) === own);
}
