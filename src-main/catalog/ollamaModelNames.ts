import path from "node:path";
import { parseGGUFQuantLabel } from "@huggingface/gguf";
import type { CatalogEntry } from "../../src-shared/contracts/catalog.js";
import { defaultQuant } from "./downloads/pickDownload.js";

/** Where Ollama names Hugging Face models: `hf.co/owner/repo:QUANT`. */
const hubPrefix = /^(?:https?:\/\/)?(?:hf\.co|huggingface\.co)\//i;

export interface OllamaModelNames {
  /** The Ollama name of a model: `hf.co/owner/repo:QUANT` for a Hub download, else `<id>:latest`. */
  nameOf(entry: CatalogEntry): string;
  /** The model an Ollama name means, or `undefined`. */
  resolve(name: string): CatalogEntry | undefined;
}

/** The quantization label of a Hub download (from its file name, else the GGUF header). */
function hubQuant(entry: CatalogEntry): string | undefined {
  const file = entry.remote_path ?? entry.path;
  return parseGGUFQuantLabel(path.basename(file)) ?? entry.gguf?.quantization ?? undefined;
}

/**
 * Perch model ids ↔ Ollama names, over the present models of the catalog:
 * - a model downloaded from Hugging Face is `hf.co/<owner>/<repo>:<QUANT>` (what `/api/pull`
 *   was given), unless two models of one repo share a quant label;
 * - every other model is `<id>:latest` (Ollama's default tag);
 * - a name resolves by exact id, by id + `:latest`, by its listed name (any case), and
 *   `hf.co/<owner>/<repo>` (or `:latest`) to the repo's only model, else its Q4_K_M.
 */
export function ollamaModelNames(entries: readonly CatalogEntry[]): OllamaModelNames {
  const present = entries.filter((entry) => !entry.missing);
  const hubName = (entry: CatalogEntry) => {
    const quant = hubQuant(entry);
    return entry.source === "hf" && entry.repo && quant ? `hf.co/${entry.repo}:${quant}` : undefined;
  };
  const counts = new Map<string, number>();
  for (const entry of present) {
    const name = hubName(entry)?.toLowerCase();
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const nameOf = (entry: CatalogEntry) => {
    const name = hubName(entry);
    return name && counts.get(name.toLowerCase()) === 1 ? name : `${entry.id}:latest`;
  };
  const resolve = (name: string) => {
    const byId = (id: string) => present.find((entry) => entry.id === id);
    const untagged = name.endsWith(":latest") ? name.slice(0, -":latest".length) : name;
    const direct = byId(name) ?? byId(untagged);
    if (direct) return direct;
    const lower = name.toLowerCase();
    const listed = present.find((entry) => {
      const listedName = nameOf(entry).toLowerCase();
      return listedName === lower || listedName === `${lower}:latest`;
    });
    if (listed || !hubPrefix.test(untagged) || untagged.includes(":")) return listed;
    const repo = untagged.replace(hubPrefix, "").toLowerCase();
    const inRepo = present.filter((entry) => entry.source === "hf" && entry.repo?.toLowerCase() === repo);
    if (inRepo.length === 1) return inRepo[0];
    const preferred = inRepo.filter((entry) => hubQuant(entry)?.toUpperCase() === defaultQuant);
    return preferred.length === 1 ? preferred[0] : undefined;
  };
  return { nameOf, resolve };
}
