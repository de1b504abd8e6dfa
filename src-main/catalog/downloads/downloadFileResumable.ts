import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import lockfile from "proper-lockfile";
import { PerchError } from "../../base/PerchError.js";
import { writeJsonAtomic } from "../../storage/writeJsonAtomic.js";
import type { ModelDownloader, RemoteFileInfo } from "./ModelDownloader.js";
import { errorMessage } from "../../base/describeError.js";

export interface ResumableDownload {
  downloader: ModelDownloader;
  repo: string;
  revision: string;
  file: RemoteFileInfo;
  /** Final path; the bytes go to `<target>.part` until verified. */
  target: string;
  signal: AbortSignal;
  /** Called with the bytes of this file on disk so far (throttle in the caller). */
  onBytes: (bytesOnDisk: number) => void;
  /** Called once the body is complete, before hashing finishes. */
  onVerifying?: () => void;
}

interface PartInfo {
  repo: string;
  path: string;
  revision: string;
  size: number;
  sha256: string | null;
}

/** Bytes already in `<target>.part` that a resumed download keeps (0 when it is for other content). */
export async function resumableBytes(target: string, expected: PartInfo): Promise<number> {
  const info = await readPartInfo(target);
  if (!info || !samePart(info, expected)) return 0;
  const size = (await fsp.stat(`${target}.part`).catch(() => ({ size: 0 }))).size;
  return size <= expected.size ? size : 0;
}

/**
 * Downloads one file resumably: continues `<target>.part` with a Range request when its sidecar
 * (`.part.json`) says it holds the same content, hashes as it writes, then verifies size and
 * sha256 (the LFS oid) before renaming into place. On failure or cancel the part stays for a
 * resume; on a checksum mismatch it is deleted (its bytes are wrong). A target already in place
 * with the remote's size and sha256 (a second pull of an unchanged model) is kept as it is, as
 * `ollama pull` keeps the layers it has. Returns the sha256. The caller holds the target's
 * `lockDownloadTarget` throughout.
 */
export async function downloadFileResumable(download: ResumableDownload): Promise<string> {
  const { file, target } = download;
  if (file.sha256 && (await fsp.stat(target).catch(() => null))?.size === file.size) {
    download.onVerifying?.();
    const present = crypto.createHash("sha256");
    await hashInto(present, target, file.size);
    const sha256 = present.digest("hex");
    if (sha256 === file.sha256.toLowerCase()) {
      download.onBytes(file.size);
      return sha256;
    }
  }
  return downloadPart(download, `${target}.part`);
}

/**
 * One process at a time appends to a `.part` (two `perch pull`s without a server once wrote into
 * the same file, and both discarded everything as the wrong size). The lock is a directory beside
 * it (`<target>.part.lock`), refreshed while the download runs, stale 10 s after its holder died.
 * Taken before anything is read or said about the part (what is on disk is the holder's). Returns
 * its release.
 */
export async function lockDownloadTarget(target: string, name: string): Promise<() => Promise<void>> {
  const part = `${target}.part`;
  await fsp.mkdir(path.dirname(target), { recursive: true }).catch((error: unknown) => {
    throw storageError(part, error);
  });
  try {
    return await lockfile.lock(part, {
      stale: 10_000,
      realpath: false,
      lockfilePath: `${part}.lock`,
      onCompromised: () => undefined,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOCKED")
      throw new PerchError(
        "conflict",
        `${name} is being downloaded by another Perch process; wait for it to finish (or stop it), then try again.`,
      );
    throw new PerchError("storage_error", `Could not lock ${part}: ${errorMessage(error)}`);
  }
}

async function downloadPart(download: ResumableDownload, part: string): Promise<string> {
  const { file, target } = download;
  const expected: PartInfo = {
    repo: download.repo,
    path: file.path,
    revision: download.revision,
    size: file.size,
    sha256: file.sha256,
  };
  let offset = await resumableBytes(target, expected);
  if (offset === 0) {
    await fsp.rm(part, { force: true });
    // Atomic: a full disk must not leave a torn sidecar that a resume then misreads.
    await writeJsonAtomic(`${part}.json`, expected).catch((error: unknown) => {
      throw storageError(part, error);
    });
  }
  let hash = crypto.createHash("sha256");
  if (offset > 0) await hashInto(hash, part, offset);

  if (offset < file.size || file.size === 0) {
    const { body, start } = await download.downloader.openFile({
      repo: download.repo,
      revision: download.revision,
      path: file.path,
      offset,
      signal: download.signal,
    });
    if (start !== offset) {
      // The server ignored the Range request: start over from its first byte.
      await fsp.writeFile(part, "");
      hash = crypto.createHash("sha256");
      offset = 0;
    }
    await writeBody(body, part, hash, offset, download);
    offset = (await fsp.stat(part)).size;
  }
  return verifyAndPlace(download, part, offset, hash.digest("hex"));
}

async function writeBody(
  body: ReadableStream<Uint8Array>,
  part: string,
  hash: crypto.Hash,
  offset: number,
  download: ResumableDownload,
): Promise<void> {
  let onDisk = offset;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      onDisk += chunk.length;
      download.onBytes(onDisk);
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
      counter,
      fs.createWriteStream(part, { flags: "a" }),
      { signal: download.signal },
    );
  } catch (error) {
    if (download.signal.aborted) throw new PerchError("cancelled", "Download cancelled.");
    // Our disk, not the hub: a full or read-only models folder says so.
    if (diskErrors.has((error as NodeJS.ErrnoException).code ?? "")) throw storageError(part, error);
    const kept = (await fsp.stat(part).catch(() => null))?.size ?? onDisk;
    throw new PerchError(
      "upstream_error",
      `Download of ${download.file.path} was interrupted after ${kept} bytes: ${errorMessage(error)}`,
    );
  }
}

/** Our disk refusing the bytes: full, over quota, read-only, not ours, or over the file size limit. */
const diskErrors = new Set(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "EIO", "EFBIG"]);

/** The one sentence of resume advice a disk failure gets (the CLI adds none of its own). */
function storageError(part: string, error: unknown): PerchError {
  const code = (error as NodeJS.ErrnoException).code;
  const full = code === "ENOSPC" || code === "EDQUOT";
  const dir = path.dirname(part);
  const fix = full ? `free some space in ${dir}, then` : `once ${dir} can take the file,`;
  return new PerchError(
    "storage_error",
    `Could not write ${part}: ${full ? "the disk is full" : errorMessage(error)}. What was downloaded is kept; ${fix} run the same download again to resume.`,
    { details: { path: part } },
  );
}

async function verifyAndPlace(
  download: ResumableDownload,
  part: string,
  size: number,
  sha256: string,
): Promise<string> {
  download.onVerifying?.();
  const { file, target } = download;
  if (size < file.size) {
    // The body ended early without an error: what arrived is still good for a resume.
    throw new PerchError(
      "upstream_error",
      `${file.path}: the download ended after ${size} of ${file.size} bytes.`,
    );
  }
  if (size > file.size) {
    await discard(part);
    throw new PerchError(
      "upstream_error",
      `${file.path}: got ${size} bytes, expected ${file.size}. ${discardedNote}`,
    );
  }
  if (file.sha256 && file.sha256.toLowerCase() !== sha256) {
    await discard(part);
    throw new PerchError(
      "upstream_error",
      `${file.path}: sha256 mismatch (expected ${file.sha256}, got ${sha256}). ${discardedNote}`,
    );
  }
  await fsp.rename(part, target);
  await fsp.rm(`${part}.json`, { force: true });
  return sha256;
}

/** Said of a download whose bytes were wrong: nothing is left to resume. */
export const discardedNote = "The downloaded data was discarded; the next pull starts over.";

async function discard(part: string): Promise<void> {
  await fsp.rm(part, { force: true });
  await fsp.rm(`${part}.json`, { force: true });
}

async function hashInto(hash: crypto.Hash, file: string, length: number): Promise<void> {
  if (length === 0) return;
  for await (const chunk of fs.createReadStream(file, { start: 0, end: length - 1 }))
    hash.update(chunk as Buffer);
}

async function readPartInfo(target: string): Promise<PartInfo | null> {
  try {
    return JSON.parse(await fsp.readFile(`${target}.part.json`, "utf8")) as PartInfo;
  } catch {
    return null;
  }
}

function samePart(a: PartInfo, b: PartInfo): boolean {
  // With a content hash the hash decides (a new commit may keep the file); without one, the commit.
  const sameContent = a.sha256 && b.sha256 ? a.sha256 === b.sha256 : a.revision === b.revision;
  return a.repo === b.repo && a.path === b.path && a.size === b.size && sameContent;
}
