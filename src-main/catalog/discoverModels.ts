import fs from "node:fs/promises";
import path from "node:path";
import { modelIdSchema } from "../../src-shared/contracts/catalog.js";
import type { HealthWarningInput } from "../storage/HealthRegistry.js";
import type { DiscoveredModel } from "./DiscoveredModel.js";
import { isModelFileName, modelIdFromPath, type ShardInfo } from "./modelIdFromPath.js";

export interface DiscoverOptions {
  /** How deep to look below each models dir. Defaults to `6`. */
  maxDepth?: number;
}

interface FoundFile {
  abs: string;
  id: string;
  shard: ShardInfo | null;
  size: number;
  mtimeMs: number;
  hf?: DiscoveredModel["hf"];
}

const hfCacheRepoPattern = /^models--([^/]+)--([^/]+)$/;

/**
 * Finds the models in the given folders: `.gguf` files directly or in sub-folders (`org/repo/`,
 * LM Studio's `publisher/repo/`), and the Hugging Face cache layout. Split shards become one
 * model; `mmproj` files are skipped. When two folders hold the same id the first one wins.
 */
export async function discoverModels(
  modelsDirs: readonly string[],
  options: DiscoverOptions = {},
): Promise<{ models: DiscoveredModel[]; warnings: HealthWarningInput[] }> {
  const maxDepth = options.maxDepth ?? 6;
  const models = new Map<string, DiscoveredModel>();
  const warnings: HealthWarningInput[] = [];
  for (const modelsDir of modelsDirs) {
    const root = path.resolve(modelsDir);
    const found: FoundFile[] = [];
    await walk(root, "", 0, maxDepth, new Set(), found).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") {
        warnings.push({
          code: "scan_error",
          message: `Could not scan ${root}: ${error.message}`,
          path: root,
        });
      }
    });
    for (const model of groupIntoModels(root, found)) {
      if (!modelIdSchema.safeParse(model.id).success) {
        warnings.push({
          code: "scan_error",
          message: `Skipping ${model.path}: its path is not a valid model id.`,
          path: model.path,
        });
        continue;
      }
      const existing = models.get(model.id);
      if (existing) {
        warnings.push({
          code: "duplicate_model",
          message: `'${model.id}' exists in ${existing.modelsDir} and ${root}; using the first.`,
          path: model.path,
          model_id: model.id,
        });
        continue;
      }
      models.set(model.id, model);
    }
  }
  return { models: [...models.values()].sort((a, b) => a.id.localeCompare(b.id)), warnings };
}

async function walk(
  root: string,
  relDir: string,
  depth: number,
  maxDepth: number,
  visited: Set<string>,
  found: FoundFile[],
): Promise<void> {
  const absDir = path.join(root, relDir);
  const real = await fs.realpath(absDir);
  if (visited.has(real)) return; // a symlink loop
  visited.add(real);
  const entries = await fs.readdir(absDir, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith(".")) continue;
    const rel = relDir ? `${relDir}/${entry.name}` : entry.name;
    const abs = path.join(root, rel);
    const stat = await fs.stat(abs).catch(() => undefined);
    if (!stat) continue;
    if (stat.isDirectory()) {
      if (depth === 0 && hfCacheRepoPattern.test(entry.name)) await walkHfCacheRepo(root, entry.name, found);
      else if (depth < maxDepth) await walk(root, rel, depth + 1, maxDepth, visited, found);
    } else if (stat.isFile() && isModelFileName(entry.name)) {
      found.push({ abs, ...modelIdFromPath(rel), size: stat.size, mtimeMs: stat.mtimeMs });
    }
  }
}

/**
 * `models--org--name/snapshots/<sha>/...`: the snapshot `refs/main` points at wins, then newer
 * snapshots. Snapshot files are symlinks to `blobs/<oid>`, which gives the file oid for free.
 */
async function walkHfCacheRepo(root: string, repoDirName: string, found: FoundFile[]): Promise<void> {
  const [, org, name] = hfCacheRepoPattern.exec(repoDirName)!;
  const repoDir = path.join(root, repoDirName);
  const main = (await fs.readFile(path.join(repoDir, "refs", "main"), "utf8").catch(() => "")).trim();
  const snapshots = await fs.readdir(path.join(repoDir, "snapshots")).catch(() => [] as string[]);
  const withTimes = await Promise.all(
    snapshots.map(async (sha) => ({
      sha,
      mtimeMs: (await fs.stat(path.join(repoDir, "snapshots", sha)).catch(() => ({ mtimeMs: 0 }))).mtimeMs,
    })),
  );
  withTimes.sort((a, b) => Number(b.sha === main) - Number(a.sha === main) || b.mtimeMs - a.mtimeMs);
  const seen = new Set<string>();
  for (const { sha } of withTimes) {
    const files: FoundFile[] = [];
    await walk(root, `${repoDirName}/snapshots/${sha}`, 0, 6, new Set(), files).catch(() => undefined);
    for (const file of files) {
      const remotePath = path
        .relative(path.join(repoDir, "snapshots", sha), file.abs)
        .split(path.sep)
        .join("/");
      if (seen.has(remotePath)) continue;
      seen.add(remotePath);
      const target = await fs.readlink(file.abs).catch(() => "");
      const blob = path.basename(target);
      found.push({
        ...file,
        hf: {
          repo: `${org}/${name}`,
          revision: sha,
          remotePath,
          fileOid: /^[0-9a-f]{40,64}$/.test(blob) ? blob : null,
        },
      });
    }
  }
}

function groupIntoModels(root: string, found: FoundFile[]): DiscoveredModel[] {
  const groups = new Map<string, FoundFile[]>();
  for (const file of found) {
    const group = groups.get(file.id);
    if (group) group.push(file);
    else groups.set(file.id, [file]);
  }
  return [...groups.entries()].map(([id, files]) => {
    files.sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
    const first = files[0];
    const rel = path.relative(root, first.abs).split(path.sep);
    return {
      id,
      modelsDir: root,
      path: first.abs,
      files: files.map((file) => file.abs),
      sizeBytes: files.reduce((sum, file) => sum + file.size, 0),
      mtimeMs: Math.max(...files.map((file) => file.mtimeMs)),
      layout: first.hf ? "hf_cache" : rel.length === 1 ? "file" : "folder",
      ...(first.hf ? { hf: first.hf } : {}),
    } satisfies DiscoveredModel;
  });
}
