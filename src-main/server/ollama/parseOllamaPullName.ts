import { quantLabelSchema, repoIdSchema } from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../base/PerchError.js";
import type { DownloadReference } from "../../catalog/downloads/pickDownload.js";

const hubName = /^(?:https?:\/\/)?(?:hf\.co|huggingface\.co)\/([^/:]+\/[^/:]+)(?::([^/:]+))?$/i;

/**
 * `hf.co/owner/repo[:QUANT]` (Ollama's Hugging Face names; `:latest` or no tag picks the repo's
 * only GGUF, else its Q4_K_M). Names of Ollama's own registry (`llama3.2:3b`) cannot be pulled.
 */
export function parseOllamaPullName(name: string): DownloadReference {
  const match = hubName.exec(name.trim());
  const repo = match?.[1];
  const tag = match?.[2];
  if (
    !repo ||
    !repoIdSchema.safeParse(repo).success ||
    (tag !== undefined && !quantLabelSchema.safeParse(tag).success)
  ) {
    throw new PerchError(
      "invalid_request",
      `Perch pulls GGUF models from Hugging Face only: name them hf.co/owner/repo[:QUANT] ` +
        `(e.g. hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M); '${name.slice(0, 200)}' is not such a name.`,
      { param: "model" },
    );
  }
  const quant = tag === undefined || tag.toLowerCase() === "latest" ? undefined : tag;
  return { source: "hf", repo, ...(quant ? { quant } : {}) };
}
