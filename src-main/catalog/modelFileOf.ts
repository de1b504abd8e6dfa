import crypto from "node:crypto";
import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import type { ModelFile } from "../../src-shared/contracts/results.js";

/**
 * The file a catalog entry holds now, as results record it (`model_file`). A split model's
 * content id stands for every shard (a sha256 over their paths and ids), so an update that
 * changed only a later shard is another file too; one file's is its own id.
 */
export function modelFileOf(
  entry: Pick<CatalogEntry, "revision" | "file_oid" | "size_bytes" | "file_oids">,
): ModelFile {
  const shards = Object.entries(entry.file_oids ?? {});
  const fileOid =
    shards.length > 1 && shards.every(([, oid]) => oid !== null)
      ? crypto
          .createHash("sha256")
          .update(
            shards
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([file, oid]) => `${file}\0${oid}`)
              .join("\n"),
          )
          .digest("hex")
      : entry.file_oid;
  return { revision: entry.revision, file_oid: fileOid, size_bytes: entry.size_bytes };
}
