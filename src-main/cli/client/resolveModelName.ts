import { PerchError } from "../../base/PerchError.js";
import type { AdminClient } from "./AdminClient.js";

/** What `perch pull` takes for a Hub quant: `owner/repo:QUANT`. */
const pullName = /^[^/:\s]+\/[^/:\s]+:[^/:\s]+$/;

/**
 * The id of the model the user named, as the server resolves it (an id, an alias, `<id>:latest`,
 * Ollama's `hf.co/owner/repo:QUANT`), or behind what `perch pull` was given (`owner/repo:QUANT`),
 * so `perch run`, `load` and `unload` take the names the Ollama face does; the id is what the chat
 * routes know. An unknown name keeps the server's `model_not_found`.
 */
export async function resolveModelName(admin: Pick<AdminClient, "request">, name: string): Promise<string> {
  const idOf = async (candidate: string) =>
    (await admin.request("getModel", { params: { model_id: candidate } })).id;
  try {
    return await idOf(name);
  } catch (error) {
    if (!(error instanceof PerchError) || error.code !== "model_not_found" || !pullName.test(name))
      throw error;
    return idOf(`hf.co/${name}`).catch(() => {
      throw error;
    });
  }
}
