import path from "node:path";
import { repoFilePathSchema, repoIdSchema } from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../base/PerchError.js";
import { isInside } from "../isInside.js";

/**
 * Where a repo file lands: `<modelsDir>/<owner>/<name>/<path in repo>` (the org/repo layout,
 * so the model id is `owner/name/<file without .gguf>`). Every segment is validated and the
 * result must stay inside the models dir, whatever the hub's listing said.
 */
export function safeDownloadTarget(modelsDir: string, repo: string, filePath: string): string {
  if (!repoIdSchema.safeParse(repo).success || !repoFilePathSchema.safeParse(filePath).success) {
    throw new PerchError("invalid_request", `Refusing to download '${repo}/${filePath}': unsafe name.`);
  }
  const target = path.resolve(modelsDir, ...repo.split("/"), ...filePath.split("/"));
  if (!isInside(modelsDir, target) || target.includes("\0")) {
    throw new PerchError("invalid_request", `Refusing to download '${filePath}' outside the models dir.`);
  }
  return target;
}
