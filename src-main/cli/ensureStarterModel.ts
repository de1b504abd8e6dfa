import type { Core } from "../core/createCore.js";
import { makeTestModelFiles } from "../testModel/makeTestModelFiles.js";

/**
 * A new user with an empty models folder still gets something to serve: the generated
 * random-weight test model. Say plainly what it is and how to add a real one.
 */
export async function ensureStarterModel(modelsDirs: string[], core: Core): Promise<void> {
  if ((await core.models.list()).length > 0) return;
  const target = modelsDirs[0];
  const files = await makeTestModelFiles(target, { draft: false });
  await core.catalog.catalog.rescan();
  process.stdout.write(
    [
      `No models found in ${modelsDirs.join(", ")}.`,
      `Generated a tiny RANDOM-WEIGHT TEST MODEL so every feature can be tried without a download:`,
      `  ${files.main}`,
      `It produces gibberish by design. To serve a real model: perch pull <owner/repo>[:QUANT]`,
      `(or the dashboard's downloads), or put a .gguf file into ${target} and rescan.`,
      "",
    ].join("\n"),
  );
}
