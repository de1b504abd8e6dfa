import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { discoverModels } from "../../../src-main/catalog/discoverModels.js";
import { modelIdFromPath } from "../../../src-main/catalog/modelIdFromPath.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-discover-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("modelIdFromPath", () => {
  it("strips .gguf and split suffixes, maps the Hugging Face cache layout", () => {
    expect(modelIdFromPath("perch-test-model-random-weights.Q8_0.gguf")).toEqual({
      id: "perch-test-model-random-weights.Q8_0",
      shard: null,
    });
    expect(modelIdFromPath("org/repo/model-Q4_K_M-00002-of-00003.gguf")).toEqual({
      id: "org/repo/model-Q4_K_M",
      shard: { index: 2, total: 3 },
    });
    expect(modelIdFromPath("models--org--name/snapshots/abc123/file.gguf").id).toBe("org/name/file");
    expect(modelIdFromPath("models--org--name/snapshots/abc123/Q4/file.gguf").id).toBe("org/name/Q4/file");
  });
});

describe("discoverModels", () => {
  it("finds every layout, groups shards, skips mmproj", async () => {
    const models = path.join(dir, "models");
    await writeTinyGguf(path.join(models, "flat.Q8_0.gguf"));
    await writeTinyGguf(path.join(models, "org", "repo", "model-Q4_K_M.gguf"));
    await writeTinyGguf(path.join(models, "org", "repo", "mmproj-model-f16.gguf"));
    await writeTinyGguf(path.join(models, "lmstudio-community", "Qwen3-GGUF", "Qwen3-Q4_K_M.gguf"));
    await writeTinyGguf(path.join(models, "big", "big-00001-of-00002.gguf"), { padding: 10 });
    await writeTinyGguf(path.join(models, "big", "big-00002-of-00002.gguf"), { padding: 20 });
    await fs.writeFile(path.join(models, "notes.txt"), "not a model");
    await writeTinyGguf(path.join(models, ".hidden", "skip.gguf"));
    // Hugging Face cache: snapshot files are symlinks to blobs named by their sha256.
    const repoDir = path.join(models, "models--hf-org--hf-name");
    const oid = "a".repeat(64);
    await writeTinyGguf(path.join(repoDir, "blobs", oid));
    await fs.mkdir(path.join(repoDir, "snapshots", "sha1"), { recursive: true });
    await fs.mkdir(path.join(repoDir, "refs"), { recursive: true });
    await fs.writeFile(path.join(repoDir, "refs", "main"), "sha1");
    await fs.symlink(`../../blobs/${oid}`, path.join(repoDir, "snapshots", "sha1", "hf-file.Q8_0.gguf"));

    const { models: found, warnings } = await discoverModels([models]);
    expect(warnings).toEqual([]);
    expect(found.map((model) => model.id)).toEqual([
      "big/big",
      "flat.Q8_0",
      "hf-org/hf-name/hf-file.Q8_0",
      "lmstudio-community/Qwen3-GGUF/Qwen3-Q4_K_M",
      "org/repo/model-Q4_K_M",
    ]);
    const big = found.find((model) => model.id === "big/big")!;
    expect(big.files.map((file) => path.basename(file))).toEqual([
      "big-00001-of-00002.gguf",
      "big-00002-of-00002.gguf",
    ]);
    expect(big.path).toBe(big.files[0]);
    const sizes = await Promise.all(big.files.map(async (file) => (await fs.stat(file)).size));
    expect(big.sizeBytes).toBe(sizes[0] + sizes[1]);
    expect(found.find((model) => model.id === "flat.Q8_0")!.layout).toBe("file");
    expect(found.find((model) => model.id === "org/repo/model-Q4_K_M")!.layout).toBe("folder");
    const hf = found.find((model) => model.id === "hf-org/hf-name/hf-file.Q8_0")!;
    expect(hf.layout).toBe("hf_cache");
    expect(hf.hf).toEqual({
      repo: "hf-org/hf-name",
      revision: "sha1",
      remotePath: "hf-file.Q8_0.gguf",
      fileOid: oid,
    });
  });

  it("skips files whose path cannot be a model id, with a warning", async () => {
    await writeTinyGguf(path.join(dir, "back\\slash.gguf"));
    await writeTinyGguf(path.join(dir, "fine.gguf"));
    const { models, warnings } = await discoverModels([dir]);
    expect(models.map((model) => model.id)).toEqual(["fine"]);
    expect(warnings.map((warning) => warning.code)).toEqual(["scan_error"]);
  });

  it("prefers the snapshot refs/main points at", async () => {
    const repoDir = path.join(dir, "models--o--n");
    for (const sha of ["old", "new"]) {
      await writeTinyGguf(path.join(repoDir, "snapshots", sha, "m.gguf"), { padding: sha === "new" ? 5 : 0 });
    }
    await fs.mkdir(path.join(repoDir, "refs"), { recursive: true });
    await fs.writeFile(path.join(repoDir, "refs", "main"), "new\n");
    const { models } = await discoverModels([dir]);
    expect(models).toHaveLength(1);
    expect(models[0].hf?.revision).toBe("new");
  });

  it("lets the first models dir win a duplicate id and reports it; a missing dir is empty", async () => {
    const first = path.join(dir, "a");
    const second = path.join(dir, "b");
    await writeTinyGguf(path.join(first, "same.gguf"));
    await writeTinyGguf(path.join(second, "same.gguf"));
    const { models, warnings } = await discoverModels([first, second, path.join(dir, "does-not-exist")]);
    expect(models.map((model) => model.modelsDir)).toEqual([first]);
    expect(warnings.map((warning) => warning.code)).toEqual(["duplicate_model"]);
  });
});
