import { describe, expect, it } from "vitest";
import { prefixBlockHashes } from "../../../src-main/scheduler/promptCache/prefixBlockHashes.js";
import { readStateFileTokens } from "../../../src-main/scheduler/promptCache/readStateFileTokens.js";

describe("prefixBlockHashes", () => {
  it("names each whole-block prefix, so sequences share entries exactly as far as they share blocks", () => {
    const a = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const b = [1, 2, 3, 4, 5, 6, 0, 8, 9];
    const hashesA = prefixBlockHashes(a, 3);
    const hashesB = prefixBlockHashes(b, 3);
    expect(hashesA).toHaveLength(3);
    expect(hashesB.slice(0, 2)).toEqual(hashesA.slice(0, 2));
    expect(hashesB[2]).not.toBe(hashesA[2]);
    // The partial block at the end gets no entry; a block hashes its prefix, not only itself.
    expect(prefixBlockHashes(a.slice(0, 8), 3)).toEqual(hashesA.slice(0, 2));
    expect(prefixBlockHashes([9, 9, 9, 4, 5, 6], 3)[1]).not.toBe(hashesA[1]);
  });
});

describe("readStateFileTokens", () => {
  const file = (tokens: number[], magic = 0x67677371) => {
    const data = Buffer.alloc(12 + tokens.length * 4 + 8);
    data.writeUInt32LE(magic, 0);
    data.writeUInt32LE(2, 4);
    data.writeUInt32LE(tokens.length, 8);
    tokens.forEach((token, index) => data.writeUInt32LE(token, 12 + index * 4));
    return data;
  };

  it("reads the tokens a sequence state file starts with", () => {
    expect(readStateFileTokens(file([5, 70000, 3]))).toEqual([5, 70000, 3]);
  });

  it("refuses another file, or one cut inside its token list", () => {
    expect(readStateFileTokens(file([1, 2], 0x12345678))).toBeUndefined();
    expect(readStateFileTokens(file([1, 2, 3]).subarray(0, 20))).toBeUndefined();
    expect(readStateFileTokens(Buffer.alloc(4))).toBeUndefined();
  });
});
