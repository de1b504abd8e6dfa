import { createHash } from "node:crypto";
import fs from "node:fs";
import { readStateFileTokens } from "./readStateFileTokens.js";

/**
 * Bytes hashed between two turns of the event loop. A sequence state grows with its prompt (about
 * 128 KiB a token for an 8B model at f16, so gigabytes for a long one), and SHA-256 in one call
 * would hold the main thread, every stream it serves included, for as long as that takes.
 */
export const hashSliceBytes = 8 << 20;

/** SHA-256 (hex) of a state held in memory, `hashSliceBytes` at a time, yielding in between. */
export async function sha256InSlices(data: Buffer): Promise<string> {
  const hash = createHash("sha256");
  for (let offset = 0; offset < data.length; offset += hashSliceBytes) {
    if (offset > 0) await new Promise((resolve) => setImmediate(resolve));
    hash.update(data.subarray(offset, offset + hashSliceBytes));
  }
  return hash.digest("hex");
}

export interface StateFileFacts {
  bytes: number;
  sha256: string;
  /** The tokens the file starts with, or `undefined` when it is not a whole sequence state. */
  tokens: number[] | undefined;
}

/**
 * The read buffer `readStateFileFacts` reuses while no other call holds it: a state is a few MB to
 * gigabytes, and a fresh buffer for every read (what `fs.createReadStream` does, plus a copy of
 * each short read) cost more main-thread time than the hashing (CPU profile, 8 clients).
 */
let spareReadBuffer: Buffer | undefined;

/**
 * Size, SHA-256 and leading tokens of a state file, read `hashSliceBytes` at a time into one
 * buffer: never the whole file in memory, and the main thread hashes one slice per read. At most
 * `expectedTokens` tokens are kept: a file whose header names more has other tokens than expected
 * (`tokens` is `undefined`). `undefined` when the file cannot be read.
 */
export async function readStateFileFacts(
  file: string,
  expectedTokens: number,
): Promise<StateFileFacts | undefined> {
  const hash = createHash("sha256");
  let bytes = 0;
  let head = Buffer.alloc(0);
  let headBytes = 12;
  const buffer = spareReadBuffer ?? Buffer.allocUnsafeSlow(hashSliceBytes);
  spareReadBuffer = undefined;
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(file, "r");
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, bytes);
      if (bytesRead === 0) break;
      const piece = buffer.subarray(0, bytesRead);
      hash.update(piece);
      bytes += bytesRead;
      let used = 0;
      while (head.length < headBytes && used < piece.length) {
        // Buffer.concat copies: the buffer is overwritten by the next read.
        const take = piece.subarray(used, used + headBytes - head.length);
        head = Buffer.concat([head, take]);
        used += take.length;
        // The header names the token count; the tokens follow it.
        if (headBytes === 12 && head.length === 12)
          headBytes = 12 + Math.min(head.readUInt32LE(8), expectedTokens) * 4;
      }
    }
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
    spareReadBuffer = buffer;
  }
  return { bytes, sha256: hash.digest("hex"), tokens: readStateFileTokens(head) };
}
