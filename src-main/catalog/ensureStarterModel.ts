import { makeTestModelFiles, type TestModelFiles } from "../testModel/makeTestModelFiles.js";
import type { ModelCatalog } from "./ModelCatalog.js";

/**
 * A new user with an empty models folder still gets something to serve: the generated
 * random-weight test model, written into the first models folder and added to the catalog.
 * Answers the files written, or null when the catalog already has a present model.
 */
export async function ensureStarterModel(
  catalog: Pick<ModelCatalog, "list" | "rescan">,
  modelsDirs: readonly string[],
): Promise<TestModelFiles | null> {
  if ((await catalog.list()).some((entry) => !entry.missing)) return null;
  const files = await makeTestModelFiles(modelsDirs[0], { draft: false });
  await catalog.rescan();
  return files;
}
