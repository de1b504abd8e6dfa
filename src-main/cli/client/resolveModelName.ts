import { PerchError } from "../../base/PerchError.js";
import { ollamaModelNames } from "../../server/ollama/ollamaModelNames.js";
import type { AdminClient } from "./AdminClient.js";

/**
 * The name to send for a model the user named: as given when the server knows it (an id, an
 * alias, `<id>:latest`), else the id behind an Ollama name (`hf.co/owner/repo:QUANT`, what
 * `/api/tags` lists) or behind what `perch pull` was given (`owner/repo:QUANT`), so `perch run`,
 * `load` and `unload` take the names the Ollama face does. An unknown name keeps the server's
 * `model_not_found`.
 */
export async function resolveModelName(
  admin: Pick<AdminClient, "send" | "request">,
  name: string,
): Promise<string> {
  try {
    await admin.send("GET", `/admin/api/models/${encodeURIComponent(name)}`);
    return name;
  } catch (error) {
    if (!(error instanceof PerchError) || error.code !== "model_not_found") throw error;
    const names = ollamaModelNames((await admin.request("listModels")).models);
    const found =
      names.resolve(name) ??
      (/^[^/:]+\/[^/:]+(?::[^/:]+)?$/.test(name) ? names.resolve(`hf.co/${name}`) : undefined);
    if (!found) throw error;
    return found.id;
  }
}
