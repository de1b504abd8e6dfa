import { parseGGUFQuantLabel } from "@huggingface/gguf";
import { isModelFileName, parseShard } from "../modelIdFromPath.js";
import type { RemoteFileInfo } from "./ModelDownloader.js";

/** One downloadable model in a repo: a single GGUF, or all shards of a split one. */
export interface RemoteGguf {
  /** The first file (what the user picks, and what the engine loads). */
  file: string;
  files: RemoteFileInfo[];
  size: number;
  quant: string | null;
}

/** Groups a repo listing into models: shards together, `mmproj` and non-GGUF files left out. */
export function groupRemoteGgufs(files: readonly RemoteFileInfo[]): RemoteGguf[] {
  const groups = new Map<string, RemoteFileInfo[]>();
  for (const file of files) {
    const name = file.path.split("/").pop() ?? "";
    if (!isModelFileName(name)) continue;
    const shard = parseShard(name);
    const groupKey = shard ? file.path.replace(/-\d{5}-of-\d{5}\.gguf$/i, "") : file.path;
    groups.set(groupKey, [...(groups.get(groupKey) ?? []), file]);
  }
  return [...groups.values()]
    .map((group) => {
      const sorted = [...group].sort((a, b) => a.path.localeCompare(b.path));
      const name = sorted[0].path.split("/").pop() ?? "";
      return {
        file: sorted[0].path,
        files: sorted,
        size: sorted.reduce((sum, file) => sum + file.size, 0),
        quant: parseGGUFQuantLabel(name) ?? parseGGUFQuantLabel(sorted[0].path) ?? null,
      };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}
