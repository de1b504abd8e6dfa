import fs from "node:fs/promises";
import path from "node:path";
import { PerchError } from "./PerchError.js";
import type { ResolvedModel } from "../engine/LoadedModel.js";

/** Interim resolver (top-level .gguf files) used until the catalog is wired in. */
export class ModelDirectory {
  constructor(private readonly dirs: string[]) {}

  async list(): Promise<{ id: string; path: string; created: number }[]> {
    const found: { id: string; path: string; created: number }[] = [];
    for (const dir of this.dirs) {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith(".gguf")).sort()) {
        const file = path.join(dir, name);
        const stat = await fs.stat(file);
        found.push({ id: name.slice(0, -5), path: file, created: Math.floor(stat.mtimeMs / 1000) });
      }
    }
    return found;
  }

  async resolve(modelId: string): Promise<ResolvedModel> {
    const match = (await this.list()).find((model) => model.id === modelId);
    if (!match)
      throw new PerchError("model_not_found", `The model '${modelId}' does not exist.`, { param: "model" });
    return { id: match.id, path: match.path, settings: {} };
  }
}
