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
 * Size, SHA-256 and leading tokens of a state file, read as a stream: never the whole file in
 * memory, and the main thread hashes one chunk at a time. At most `expectedTokens` tokens are
 * kept: a file whose header names more has other tokens than expected (`tokens` is `undefined`).
 * `undefined` when the file cannot be read.
 */
export async function readStateFileFacts(
  file: string,
  expectedTokens: number,
): Promise<StateFileFacts | undefined> {
  const hash = createHash("sha256");
  let bytes = 0;
  let head = Buffer.alloc(0);
  let headBytes = 12;
  try {
    for await (const chunk of fs.createReadStream(file, { highWaterMark: hashSliceBytes })) {
      const piece = chunk as Buffer;
      hash.update(piece);
      bytes += piece.length;
      let used = 0;
      while (head.length < headBytes && used < piece.length) {
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
  }
  return { bytes, sha256: hash.digest("hex"), tokens: readStateFileTokens(head) };
}
