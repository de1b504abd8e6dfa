import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sequenceStateMagic } from "../../../src-main/scheduler/promptCache/readStateFileTokens.js";
import {
  hashSliceBytes,
  readStateFileFacts,
  sha256InSlices,
} from "../../../src-main/scheduler/promptCache/stateChecksum.js";

/**
 * The prompt cache checksums sequence states, which grow with the prompt (gigabytes for a long
 * prompt on a large model). Hashing one in a single call held the main thread, and every stream
 * it serves, for as long as that took; states are now hashed a slice at a time (memory) or as a
 * stream (files, never read whole into memory).
 */

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** A state file as llama.cpp writes one: magic, version, token count, tokens, then `payload` bytes. */
function stateFile(
  tokens: number[],
  payload: number,
  claimedTokens = tokens.length,
): { file: string; data: Buffer } {
  const data = Buffer.alloc(12 + tokens.length * 4 + payload, 0x5a);
  data.writeUInt32LE(sequenceStateMagic, 0);
  data.writeUInt32LE(3, 4);
  data.writeUInt32LE(claimedTokens, 8);
  tokens.forEach((token, index) => data.writeUInt32LE(token, 12 + index * 4));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-state-sum-"));
  folders.push(dir);
  const file = path.join(dir, "entry.state");
  fs.writeFileSync(file, data);
  return { file, data };
}

describe("sha256InSlices", () => {
  it.each([0, 1, hashSliceBytes - 1, hashSliceBytes, 2 * hashSliceBytes + 3])(
    "equals one SHA-256 over %i bytes",
    async (size) => {
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4093) data[i] = i % 251;
      expect(await sha256InSlices(data)).toBe(sha256(data));
    },
  );

  it("lets the event loop turn between slices", async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    await sha256InSlices(Buffer.alloc(hashSliceBytes + 1));
    // Hashed in one go, the promise settles before any queued callback of the loop runs.
    expect(turned).toBe(true);
  });
});

describe("readStateFileFacts", () => {
  it("gives size, checksum and tokens, also when the tokens run past the first chunk", async () => {
    // 2.2 million tokens: the token list alone is longer than one read chunk.
    const tokens = Array.from({ length: Math.ceil((hashSliceBytes * 1.1) / 4) }, (_, i) => i % 50_000);
    const { file, data } = stateFile(tokens, 1000);
    const facts = await readStateFileFacts(file, tokens.length);
    expect(facts?.bytes).toBe(data.length);
    expect(facts?.sha256).toBe(sha256(data));
    expect(facts?.tokens).toEqual(tokens);
  });

  it("names no tokens when the header claims more than expected, or the file ends first", async () => {
    const tokens = [5, 6, 7, 8];
    expect((await readStateFileFacts(stateFile(tokens, 64, 9).file, 4))?.tokens).toBeUndefined();
    expect((await readStateFileFacts(stateFile(tokens, 0, 4).file, 9))?.tokens).toEqual(tokens);
    expect((await readStateFileFacts(stateFile(tokens, 0, 6).file, 9))?.tokens).toBeUndefined();
  });

  it("is undefined for a file that cannot be read", async () => {
    expect(await readStateFileFacts(path.join(os.tmpdir(), "perch-no-such-state-file"), 4)).toBeUndefined();
  });
});
