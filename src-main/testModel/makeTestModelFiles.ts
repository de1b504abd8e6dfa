import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { gguf } from "@huggingface/gguf";
import {
  defaultTestModelSeed,
  makeTestModel,
  testModelFileName,
  testModelGeneratorVersion,
} from "./makeTestModel.js";
import type { TestModelVariant } from "./testModelShapes.js";

export interface MakeTestModelFilesOptions {
  /** Also write the draft model (same tokenizer, for speculative decoding). Defaults to `true`. */
  draft?: boolean;
  /** Also write the ~360M-parameter benchmark model (~390 MB, ~30 s). Defaults to `false`. */
  realistic?: boolean;
  /** Also write the fill-in-the-middle test model (FIM tokens, for `suffix`). Defaults to `false`. */
  fim?: boolean;
  /** Rewrite files even when an up-to-date one is already there. Defaults to `false`. */
  force?: boolean;
}

export interface TestModelFiles {
  main: string;
  draft?: string;
  realistic?: string;
  fim?: string;
}

/**
 * Writes the generated test models into `modelsDir` (created if missing) and returns their paths.
 * A file already written by this generator version with the default seed is kept as it is, so
 * its modification time (and anything keyed on it) stays stable.
 */
export async function makeTestModelFiles(
  modelsDir: string,
  options: MakeTestModelFilesOptions = {},
): Promise<TestModelFiles> {
  await mkdir(modelsDir, { recursive: true });
  const write = async (variant: TestModelVariant): Promise<string> => {
    const path = join(modelsDir, testModelFileName(variant));
    if (options.force || !(await isCurrent(path, variant)))
      await makeTestModel({ variant, outputPath: path });
    return path;
  };
  return {
    main: await write("test"),
    draft: options.draft === false ? undefined : await write("draft"),
    realistic: options.realistic ? await write("realistic") : undefined,
    fim: options.fim ? await write("fim") : undefined,
  };
}

async function isCurrent(path: string, variant: TestModelVariant): Promise<boolean> {
  try {
    const { metadata } = await gguf(path, { allowLocalFile: true });
    const value = (key: string): unknown => (metadata as Record<string, unknown>)[key];
    return (
      value("perch.test_model.generator") === testModelGeneratorVersion &&
      value("perch.test_model.variant") === variant &&
      value("perch.test_model.seed") === defaultTestModelSeed
    );
  } catch {
    return false;
  }
}
