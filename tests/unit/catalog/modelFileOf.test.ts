import { describe, expect, it } from "vitest";
import { modelFileOf } from "../../../src-main/catalog/modelFileOf.js";
import { isSameModelFile } from "../../../src-shared/contracts/results.js";

const entry = (file_oids?: Record<string, string | null>) => ({
  revision: "c1",
  file_oid: "a".repeat(64),
  size_bytes: 300,
  ...(file_oids ? { file_oids } : {}),
});

describe("modelFileOf", () => {
  it("is the file's own content id for one file", () => {
    expect(modelFileOf(entry())).toEqual({ revision: "c1", file_oid: "a".repeat(64), size_bytes: 300 });
    expect(modelFileOf(entry({ "m.gguf": "a".repeat(64) })).file_oid).toBe("a".repeat(64));
  });

  it("stands for every shard of a split model: a change in a later shard is another file", () => {
    const before = modelFileOf(
      entry({ "m-00001-of-00002.gguf": "a".repeat(64), "m-00002-of-00002.gguf": "b".repeat(64) }),
    );
    const again = modelFileOf(
      entry({ "m-00002-of-00002.gguf": "b".repeat(64), "m-00001-of-00002.gguf": "a".repeat(64) }),
    );
    const after = modelFileOf(
      entry({ "m-00001-of-00002.gguf": "a".repeat(64), "m-00002-of-00002.gguf": "c".repeat(64) }),
    );
    expect(isSameModelFile(before, again)).toBe(true);
    expect(isSameModelFile(before, after)).toBe(false);
    // A shard whose id is unknown leaves the first file's id (and sizes) to tell.
    expect(modelFileOf(entry({ "a.gguf": "a".repeat(64), "b.gguf": null })).file_oid).toBe("a".repeat(64));
  });
});
