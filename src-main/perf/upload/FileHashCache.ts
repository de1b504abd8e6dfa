import crypto from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import { z } from "zod";
import { writeJsonAtomic } from "../../storage/writeJsonAtomic.js";

const cacheSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ size: z.number(), mtime_ms: z.number(), sha256: z.string() })),
});
type CacheFile = z.infer<typeof cacheSchema>;

/**
 * sha256 of model files, cached on disk by path, size and modification time: hashing a 20 GB
 * GGUF takes a minute, and a preview or upload should not pay for it twice. The cache is a
 * local file; the paths in it never leave the machine. Concurrent requests for one file share
 * one hashing pass.
 */
export class FileHashCache {
  private cache: Promise<CacheFile> | undefined;
  private readonly pending = new Map<string, Promise<string>>();

  constructor(private readonly cacheFile: string) {}

  sha256(filePath: string): Promise<string> {
    const running = this.pending.get(filePath);
    if (running) return running;
    const task = this.compute(filePath).finally(() => this.pending.delete(filePath));
    this.pending.set(filePath, task);
    return task;
  }

  /** The cached hash when the file is unchanged since it was hashed; never hashes. */
  async cached(filePath: string): Promise<string | undefined> {
    const stat = await fs.stat(filePath).catch(() => undefined);
    const entry = (await this.load()).files[filePath];
    return stat && entry && entry.size === stat.size && entry.mtime_ms === stat.mtimeMs
      ? entry.sha256
      : undefined;
  }

  private async compute(filePath: string): Promise<string> {
    const known = await this.cached(filePath);
    if (known) return known;
    const stat = await fs.stat(filePath);
    const hash = crypto.createHash("sha256");
    for await (const chunk of createReadStream(filePath, { highWaterMark: 4 * 1024 * 1024 }))
      hash.update(chunk as Buffer);
    const sha256 = hash.digest("hex");
    const cache = await this.load();
    cache.files[filePath] = { size: stat.size, mtime_ms: stat.mtimeMs, sha256 };
    await writeJsonAtomic(this.cacheFile, cache);
    return sha256;
  }

  private load(): Promise<CacheFile> {
    this.cache ??= fs
      .readFile(this.cacheFile, "utf8")
      .then((text) => cacheSchema.parse(JSON.parse(text)))
      .catch((): CacheFile => ({ version: 1, files: {} }));
    return this.cache;
  }
}
