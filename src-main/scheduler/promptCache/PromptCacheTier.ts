import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { LlamaContextSequence } from "node-llama-cpp";
import lockfile from "proper-lockfile";
import {
  promptCacheIndexSchema,
  type PromptCacheEntry,
  type PromptCacheFingerprint,
  type PromptCacheIndex,
} from "../../../src-shared/contracts/promptCache.js";
import type { PromptCacheStats } from "../../../src-shared/contracts/stats.js";
import { createLogger } from "../../base/createLogger.js";
import { errorMessage } from "../../base/describeError.js";
import { prefixBlockHashes } from "./prefixBlockHashes.js";
import { readStateFileFacts, sha256InSlices } from "./stateChecksum.js";

const log = createLogger("prompt-cache");

/** What the tier needs of a sequence: its tokens, and node-llama-cpp's state file I/O. */
export type StatefulSequence = Pick<
  LlamaContextSequence,
  "contextTokens" | "saveStateToFile" | "loadStateFromFile"
>;

export interface PromptCacheLimits {
  /** Bytes of states kept in memory; 0 = none. */
  ramBytes: number;
  /** Bytes of state files kept in the folder; 0 = none. */
  diskBytes: number;
}

export interface PromptCacheTierOptions {
  /** `<base>/cache/kv/<model>`: this model's folder, used by nothing else. */
  dir: string;
  fingerprint: PromptCacheFingerprint;
  /** Tokens per hash-chain block: prefixes are found at this granularity. */
  blockSize: number;
  /** Read at every save, so a settings change applies at once. */
  limits: () => PromptCacheLimits;
}

interface Entry extends PromptCacheEntry {
  /** The state's bytes while it is in the RAM tier. */
  ram?: Buffer;
  /** Whether `<id>.state` is written and indexed. */
  onDisk: boolean;
}

export interface TierMatch {
  entry: Readonly<PromptCacheEntry>;
  /** Prompt tokens the entry is known to hold (whole blocks; the restored sequence may share more). */
  tokens: number;
}

/**
 * How a restore ended: `gone` when the entry was trimmed (or the tier closed) between `find` and
 * `restore`, a plain miss; `rejected` when its file failed verification and was removed.
 */
export type RestoreOutcome = "restored" | "gone" | "rejected";

const indexName = "index.json";
/** A lock not refreshed for this long was left by a process that died. */
const lockStaleMs = 10_000;

/**
 * The prompt cache beyond the sequences: states of evicted sequences, in memory (hot) and as files
 * (cold, surviving a restart), found by the hash chain of their token blocks so a prompt gets its
 * longest cached prefix. Both tiers are LRU-bounded by bytes; memory spills to disk. Every file is
 * checked against its recorded size and SHA-256 before llama.cpp reads it (a corrupt state could
 * crash the process): a mismatch is removed, never loaded. One operation at a time.
 */
export class PromptCacheTier {
  private readonly entries = new Map<string, Entry>();
  /** Last block hash → entries whose chain passes through it (the prefix lookup). */
  private readonly byBlock = new Map<string, Set<Entry>>();
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;
  private indexTimer: NodeJS.Timeout | undefined;
  private releaseLock: (() => Promise<void>) | undefined;

  private constructor(private readonly options: PromptCacheTierOptions) {}

  /**
   * Opens a model's folder: keeps the indexed states that are still whole and match the
   * fingerprint, removes everything else (states of another model file or load settings, stray
   * files of a crash).
   */
  static async open(options: PromptCacheTierOptions): Promise<PromptCacheTier> {
    const tier = new PromptCacheTier(options);
    // Owner-only, like every Perch file: a state holds its prompt's tokens in clear.
    await fs.mkdir(options.dir, { recursive: true, mode: 0o700 });
    await tier.lock();
    try {
      await tier.load();
    } catch (error) {
      await tier.unlock();
      throw error;
    }
    return tier;
  }

  /**
   * One process per folder: a second `perch serve` (or the app) on the same base path would sweep
   * the files the first has not indexed yet. `<dir>.lock` is a directory whose mtime the holder
   * refreshes; one left by a crash counts as free once stale. The loser runs without a tier.
   */
  private async lock(): Promise<void> {
    try {
      this.releaseLock = await lockfile.lock(this.options.dir, {
        stale: lockStaleMs,
        update: lockStaleMs / 2,
        realpath: false,
        // Someone removed or took the lock: stop saving (never write beside another process).
        onCompromised: (error) => {
          log.warn(
            { dir: this.options.dir, err: errorMessage(error) },
            "prompt cache lock lost: saving stops",
          );
          this.releaseLock = undefined;
          this.closed = true;
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ELOCKED") {
        throw new Error(`another Perch process uses the prompt cache folder ${this.options.dir}`, {
          cause: error,
        });
      }
      throw error;
    }
  }

  private async unlock(): Promise<void> {
    const release = this.releaseLock;
    this.releaseLock = undefined;
    await release?.().catch((error: unknown) => {
      log.warn(
        { dir: this.options.dir, err: errorMessage(error) },
        "could not release the prompt cache lock",
      );
    });
  }

  /** Keeps the indexed states that are whole and match the fingerprint; removes everything else. */
  private async load(): Promise<void> {
    const { dir, blockSize, fingerprint } = this.options;
    const index = await this.readIndex();
    const same =
      index !== undefined &&
      index.blockSize === blockSize &&
      canonical(index.fingerprint) === canonical(fingerprint);
    if (index && !same) log.info({ dir }, "model or load settings changed: prompt cache cleared");
    for (const stored of same ? index.entries : []) {
      const stat = await fs.stat(this.fileOf(stored)).catch(() => undefined);
      if (stat?.isFile() && stat.size === stored.bytes) this.add({ ...stored, onDisk: true });
    }
    const kept = new Set([...this.entries.values()].map((entry) => `${entry.id}.state`));
    for (const name of await fs.readdir(dir)) {
      if (name !== indexName && !kept.has(name)) await fs.rm(path.join(dir, name), { force: true });
    }
    await this.writeIndex();
  }

  /** The entry holding the longest whole-block prefix of `tokens`, most recently used first. */
  find(tokens: readonly number[]): TierMatch | undefined {
    const hashes = prefixBlockHashes(tokens, this.options.blockSize);
    for (let depth = hashes.length; depth > 0; depth -= 1) {
      const holders = this.byBlock.get(hashes[depth - 1]!);
      if (!holders || holders.size === 0) continue;
      const entry = [...holders].reduce((best, next) => (next.lastUsedAt > best.lastUsedAt ? next : best));
      return { entry, tokens: depth * this.options.blockSize };
    }
    return undefined;
  }

  /**
   * Saves what `sequence` holds (before it is reused for another prompt). Skipped when an entry
   * already holds the same whole blocks, when nothing fits, or after `close`. Entries whose chain
   * is a prefix of this one are dropped: this one serves every prompt they would.
   *
   * The state is written outside `exclusive`: requests that arrive together then wait for the
   * context lock together, and the batch dispatcher lets all of them through between two decodes.
   * Serialised, each save took one decode cycle, so their prompts ran one per decode instead of
   * in one batch (README: "Concurrent decoding"). Only the bookkeeping is exclusive.
   *
   * `keep`: the entry about to be restored into this same sequence. Trimming never evicts it:
   * a conversation that comes back is usually the oldest entry, and its own save made room by
   * dropping it just before the restore (the new entry goes instead when both cannot fit).
   */
  async save(sequence: StatefulSequence, keep?: TierMatch, usedAt?: number): Promise<boolean> {
    const tokens = sequence.contextTokens.slice();
    const blocks = prefixBlockHashes(tokens, this.options.blockSize);
    if (!this.worthSaving(blocks)) return false;
    const id = randomBytes(16).toString("hex");
    const temp = path.join(this.options.dir, `${id}.tmp`);
    // Read back for the RAM tier; for the disk only its checksum, streamed.
    let data: Buffer | undefined;
    let checksum: string | undefined;
    let bytes: number;
    try {
      // The folder may have been deleted under a running server (a user clearing caches).
      await fs.mkdir(this.options.dir, { recursive: true, mode: 0o700 });
      await sequence.saveStateToFile(temp);
      await fs.chmod(temp, 0o600);
      bytes = (await fs.stat(temp)).size;
      if (this.options.limits().ramBytes >= bytes) data = await fs.readFile(temp);
      else checksum = (await readStateFileFacts(temp, tokens.length))?.sha256;
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    return this.exclusive(async () => {
      const limits = this.options.limits();
      // Again: the tier may have closed, or taken the same blocks from another sequence, meanwhile.
      if (!this.worthSaving(blocks)) {
        await fs.rm(temp, { force: true });
        return false;
      }
      // A RAM entry gets its checksum when it is written to disk (`trim`): only files are verified.
      const entry: Entry = {
        id,
        blocks,
        tokens: tokens.length,
        bytes,
        sha256: "",
        lastUsedAt: usedAt ?? Date.now(),
        onDisk: false,
      };
      if (data && limits.ramBytes >= bytes) {
        entry.ram = data;
        await fs.rm(temp, { force: true });
      } else if (limits.diskBytes >= bytes && (checksum ?? data)) {
        entry.sha256 = checksum ?? (await sha256InSlices(data!));
        await fs.rename(temp, this.fileOf(entry));
        entry.onDisk = true;
      } else {
        await fs.rm(temp, { force: true });
        return false;
      }
      for (const other of [...this.entries.values()]) {
        if (other.blocks.length <= blocks.length && blocks[other.blocks.length - 1] === other.blocks.at(-1)) {
          await this.remove(other);
        }
      }
      this.add(entry);
      await this.trim(limits, keep?.entry.id);
      this.indexLater();
      return this.entries.has(id);
    });
  }

  /** Whether a state of these blocks may be saved; an entry holding the same ones counts as used. */
  private worthSaving(blocks: string[]): boolean {
    const limits = this.options.limits();
    if (this.closed || blocks.length === 0 || (limits.ramBytes <= 0 && limits.diskBytes <= 0)) return false;
    const same = [...(this.byBlock.get(blocks.at(-1)!) ?? [])].find(
      (entry) => entry.blocks.length === blocks.length,
    );
    if (!same) return true;
    same.lastUsedAt = Date.now();
    return false;
  }

  /**
   * Loads a matched entry into `sequence`. Resolves false (and removes the entry) when its file is
   * missing, has another size or checksum, or holds other tokens than its index says: such a file
   * is never given to llama.cpp. A failure inside llama.cpp rejects; the entry is removed too.
   * The load itself runs outside `exclusive`, for the reason `save` gives, from a private file: a
   * copy of a RAM entry, or a hard link to a verified entry file (which a concurrent save may
   * trim away meanwhile; the link keeps its data).
   */
  async restore(match: TierMatch, sequence: StatefulSequence): Promise<RestoreOutcome> {
    const source = await this.exclusive(
      async (): Promise<{ entry: Entry; temp: string } | RestoreOutcome> => {
        const entry = this.entries.get(match.entry.id);
        if (!entry || this.closed) return "gone";
        const temp = path.join(this.options.dir, `${randomBytes(16).toString("hex")}.tmp`);
        if (entry.ram) {
          // node-llama-cpp loads states from files only; this one is read back from the page cache.
          await fs.writeFile(temp, entry.ram, { mode: 0o600 });
          return { entry, temp };
        }
        if (await this.verify(entry)) {
          // A file system without hard links gets a copy.
          await fs.link(this.fileOf(entry), temp).catch(() => fs.copyFile(this.fileOf(entry), temp));
          return { entry, temp };
        }
        await this.remove(entry);
        this.indexLater();
        return "rejected";
      },
    );
    if (typeof source === "string") return source;
    try {
      await sequence.loadStateFromFile(source.temp, { acceptRisk: true });
    } catch (error) {
      await this.exclusive(async () => {
        await this.remove(source.entry);
        this.indexLater();
      });
      throw error;
    } finally {
      await fs.rm(source.temp, { force: true });
    }
    source.entry.lastUsedAt = Date.now();
    return "restored";
  }

  /**
   * Applies the limits now (a settings change): what is over them spills or goes at once, and
   * with both at 0 nothing is kept, in memory or on disk (README, SECURITY.md: 0 = off).
   */
  applyLimits(): Promise<void> {
    return this.exclusive(async () => {
      if (this.closed) return;
      await this.trim(this.options.limits());
      this.indexLater();
    });
  }

  /** Moves the RAM tier to disk (as far as the disk limit allows) and stops saving. */
  close(): Promise<void> {
    return this.exclusive(async () => {
      if (this.closed) return;
      const limits = this.options.limits();
      await this.trim({ ramBytes: 0, diskBytes: limits.diskBytes });
      clearTimeout(this.indexTimer);
      try {
        await this.writeIndex();
      } finally {
        this.closed = true;
        await this.unlock();
      }
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  stats(): Pick<PromptCacheStats, "ram" | "disk"> {
    const limits = this.options.limits();
    const entries = [...this.entries.values()];
    const inRam = entries.filter((entry) => entry.ram);
    const onDisk = entries.filter((entry) => entry.onDisk);
    const bytes = (list: Entry[]) => list.reduce((sum, entry) => sum + entry.bytes, 0);
    return {
      ram: { entries: inRam.length, bytes: bytes(inRam), limitBytes: Math.max(0, limits.ramBytes) },
      disk: { entries: onDisk.length, bytes: bytes(onDisk), limitBytes: Math.max(0, limits.diskBytes) },
    };
  }

  /**
   * Oldest first: RAM beyond its limit spills to disk (or goes), disk beyond its limit goes.
   * The entry `keepId` (about to be restored) stays where it is.
   */
  private async trim(limits: PromptCacheLimits, keepId?: string): Promise<void> {
    const oldestFirst = () => [...this.entries.values()].sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    let ramBytes = oldestFirst().reduce((sum, entry) => sum + (entry.ram ? entry.bytes : 0), 0);
    for (const entry of oldestFirst()) {
      if (ramBytes <= limits.ramBytes) break;
      if (!entry.ram || entry.id === keepId) continue;
      if (!entry.onDisk && entry.bytes <= limits.diskBytes) {
        entry.sha256 ||= await sha256InSlices(entry.ram);
        const temp = path.join(this.options.dir, `${entry.id}.tmp`);
        await fs.writeFile(temp, entry.ram, { mode: 0o600 });
        await fs.rename(temp, this.fileOf(entry));
        entry.onDisk = true;
      }
      entry.ram = undefined;
      ramBytes -= entry.bytes;
      if (!entry.onDisk) await this.remove(entry);
    }
    let diskBytes = oldestFirst().reduce((sum, entry) => sum + (entry.onDisk ? entry.bytes : 0), 0);
    for (const entry of oldestFirst()) {
      if (diskBytes <= limits.diskBytes) break;
      if (!entry.onDisk || entry.id === keepId) continue;
      diskBytes -= entry.bytes;
      if (entry.ram) {
        entry.onDisk = false;
        await fs.rm(this.fileOf(entry), { force: true });
      } else {
        await this.remove(entry);
      }
    }
  }

  /** The file is whole: its size and SHA-256 as saved, and the tokens its index entry names. */
  private async verify(entry: Entry): Promise<boolean> {
    const facts = await readStateFileFacts(this.fileOf(entry), entry.tokens);
    const problem =
      facts === undefined
        ? "missing"
        : facts.bytes !== entry.bytes
          ? "truncated"
          : facts.sha256 !== entry.sha256
            ? "checksum mismatch"
            : !sameChain(facts.tokens, entry, this.options.blockSize)
              ? "other tokens"
              : undefined;
    if (problem) log.warn({ dir: this.options.dir, id: entry.id, problem }, "prompt cache file removed");
    return problem === undefined;
  }

  private add(entry: Entry): void {
    this.entries.set(entry.id, entry);
    for (const block of entry.blocks) {
      let holders = this.byBlock.get(block);
      if (!holders) this.byBlock.set(block, (holders = new Set()));
      holders.add(entry);
    }
  }

  private async remove(entry: Entry): Promise<void> {
    this.entries.delete(entry.id);
    for (const block of entry.blocks) {
      const holders = this.byBlock.get(block);
      holders?.delete(entry);
      if (holders?.size === 0) this.byBlock.delete(block);
    }
    entry.ram = undefined;
    if (entry.onDisk) await fs.rm(this.fileOf(entry), { force: true });
    entry.onDisk = false;
  }

  private async readIndex(): Promise<PromptCacheIndex | undefined> {
    const file = path.join(this.options.dir, indexName);
    const text = await fs.readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    try {
      const parsed = promptCacheIndexSchema.safeParse(JSON.parse(text));
      if (parsed.success) return parsed.data;
    } catch {
      // Not JSON: handled like a file that does not match the schema.
    }
    log.warn({ file }, "unreadable prompt cache index: the folder is emptied");
    return undefined;
  }

  /**
   * Writes the index soon, off the request's path. Until then a crash only leaves state files the
   * index does not name, which the next open removes; the files the index names are never changed.
   */
  private indexLater(): void {
    if (this.indexTimer) return;
    this.indexTimer = setTimeout(() => {
      this.indexTimer = undefined;
      void this.exclusive(() => (this.closed ? Promise.resolve() : this.writeIndex())).catch(
        (error: unknown) =>
          log.warn(
            { dir: this.options.dir, err: errorMessage(error) },
            "could not write the prompt cache index",
          ),
      );
    }, 200);
    this.indexTimer.unref();
  }

  /** Temp file and rename: a reader sees the old index or the new one, never a torn one. */
  private async writeIndex(): Promise<void> {
    const index: PromptCacheIndex = {
      version: 1,
      fingerprint: this.options.fingerprint,
      blockSize: this.options.blockSize,
      entries: [...this.entries.values()]
        .filter((entry) => entry.onDisk)
        .map(({ id, blocks, tokens, bytes, sha256: checksum, lastUsedAt }) => ({
          id,
          blocks,
          tokens,
          bytes,
          sha256: checksum,
          lastUsedAt,
        })),
    };
    // No fsync: a cache index lost to a power cut costs a cold prompt, not data.
    const file = path.join(this.options.dir, indexName);
    await fs.mkdir(this.options.dir, { recursive: true, mode: 0o700 });
    await fs.writeFile(`${file}.tmp`, `${JSON.stringify(index)}\n`, { mode: 0o600 });
    await fs.rename(`${file}.tmp`, file);
  }

  private fileOf(entry: Pick<PromptCacheEntry, "id">): string {
    return path.join(this.options.dir, `${entry.id}.state`);
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch((error: unknown) => {
      log.debug({ err: errorMessage(error) }, "prompt cache operation failed");
    });
    return result;
  }
}

function sameChain(tokens: number[] | undefined, entry: Entry, blockSize: number): boolean {
  if (!tokens || tokens.length !== entry.tokens) return false;
  const hashes = prefixBlockHashes(tokens, blockSize);
  return hashes.length === entry.blocks.length && hashes.every((hash, index) => hash === entry.blocks[index]);
}

/** JSON with sorted keys, so two fingerprints compare by content. */
function canonical(value: PromptCacheFingerprint): string {
  return JSON.stringify(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}
