import { createHash } from "node:crypto";
import { access, mkdir, readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { getLlama, type Llama, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll } from "vitest";
import { fileURLToPath } from "node:url";
import { makeTestModel, testModelFileName } from "../../src-main/testModel/makeTestModel.js";
import type { TestModelVariant } from "../../src-main/testModel/testModelShapes.js";

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const generatorSources = ["src-main/testModel", "src-main/gguf"];
/** What the generator is made of: its code and the text assets it reads (the training corpus). */
const generatorFile = /\.(ts|txt)$/;

let pending: Promise<{ main: string; draft: string }> | undefined;

/**
 * Paths of the generated test and draft models, generated on first use into
 * `.tmp/test-models/<hash of the generator's sources>/` — so editing the generator invalidates the
 * cache by itself. Safe across concurrent vitest workers: each writes to a temporary name and
 * renames, and the bytes are identical whoever wins.
 */
export function ensureTestModels(): Promise<{ main: string; draft: string }> {
  pending ??= generate().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function generate(): Promise<{ main: string; draft: string }> {
  const folder = join(repositoryRoot, ".tmp", "test-models", await generatorFingerprint());
  await mkdir(folder, { recursive: true });
  const ensure = async (variant: TestModelVariant): Promise<string> => {
    const path = join(folder, testModelFileName(variant));
    if (!(await exists(path))) await makeTestModel({ variant, outputPath: path });
    return path;
  };
  return { main: await ensure("test"), draft: await ensure("draft") };
}

let pendingFim: Promise<string> | undefined;

/** Path of the generated fill-in-the-middle test model (`fim` variant), generated on first use like the others. */
export function ensureFimTestModel(): Promise<string> {
  pendingFim ??= (async () => {
    const folder = join(repositoryRoot, ".tmp", "test-models", await generatorFingerprint());
    await mkdir(folder, { recursive: true });
    const path = join(folder, testModelFileName("fim"));
    if (!(await exists(path))) await makeTestModel({ variant: "fim", outputPath: path });
    return path;
  })().catch((error: unknown) => {
    pendingFim = undefined;
    throw error;
  });
  return pendingFim;
}

/** The cache key of the generated models: a hash of the generator's files under `root`. */
export async function generatorFingerprint(root = repositoryRoot): Promise<string> {
  const hash = createHash("sha256");
  for (const source of generatorSources) {
    const folder = join(root, source);
    for (const file of (await readdir(folder)).filter((name) => generatorFile.test(name)).sort()) {
      hash.update(`${source}/${file}\0`);
      hash.update(await readFile(join(folder, file)));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The generated test model loaded raw on the CPU (no engine pool), for tests of the library itself. */
export async function loadTestModel(): Promise<{
  llama: Llama;
  model: LlamaModel;
  dispose: () => Promise<void>;
}> {
  const paths = await ensureTestModels();
  const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: "warn" as never,
    progressLogs: false,
  });
  const model = await llama.loadModel({ modelPath: paths.main });
  return {
    llama,
    model,
    dispose: async () => {
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** `loadTestModel()` for a whole test file: loaded before its tests, disposed after them. */
export function useTestModel(): { llama: Llama; model: LlamaModel } {
  const handle = {} as { llama: Llama; model: LlamaModel };
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ llama: handle.llama, model: handle.model, dispose } = await loadTestModel());
  });
  afterAll(async () => {
    await dispose?.();
  });
  return handle;
}
