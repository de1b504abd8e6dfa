import fs from "node:fs";
import path from "node:path";
import { makeTestModelFiles } from "../src-main/testModel/makeTestModelFiles.js";

const dir = path.resolve(".tmp/bench-models");

/**
 * The generated test model (and draft) for benchmarks; the realistic-shape model is used when it
 * has been generated (`node bin/perch.js models make-test-model --realistic --models-dir .tmp/bench-models`).
 */
export async function benchModels(): Promise<{ main: string; draft: string; realistic?: string }> {
  fs.mkdirSync(dir, { recursive: true });
  const files = await makeTestModelFiles(dir, { draft: true, realistic: false });
  const realistic = fs.readdirSync(dir).find((name) => name.includes("realistic") && name.endsWith(".gguf"));
  return {
    main: files.main,
    draft: files.draft as string,
    realistic: realistic ? path.join(dir, realistic) : undefined,
  };
}
