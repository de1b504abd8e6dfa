import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Token } from "node-llama-cpp";
import { afterEach, describe, expect, it } from "vitest";
import {
  PromptCacheTier,
  type StatefulSequence,
} from "../../../src-main/scheduler/promptCache/PromptCacheTier.js";
import { PromptCache } from "../../../src-main/scheduler/promptCache/PromptCache.js";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import {
  readStateFileTokens,
  sequenceStateMagic,
} from "../../../src-main/scheduler/promptCache/readStateFileTokens.js";

/**
 * Issue 16: two Perch processes on one base path shared a model's cache folder, and the second
 * one's open swept the files the first had not indexed yet. The folder is now locked by the tier
 * that opened it (proper-lockfile: `<dir>.lock`, refreshed while held).
 *
 * Issue 20: saves and restores of different sequences overlap, so requests arriving together wait
 * for the context lock together and their prompts share one batch (README: "Concurrent decoding").
 */

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function options(dir: string, limits = { ramBytes: 1024, diskBytes: 1024 }) {
  return {
    dir,
    blockSize: 4,
    fingerprint: {
      modelId: "m",
      modelPath: "/models/m.gguf",
      modelBytes: 1,
      modelModifiedMs: 1,
      contextSize: 64,
      sequences: 1,
      kvCacheType: "f16",
      flashAttention: "false",
      llamaCpp: "test",
      llamaBuild: "test",
    },
    limits: () => limits,
  };
}

describe("PromptCacheTier folder lock", () => {
  it("refuses a second opener of the same folder until the first closes", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-lock-"));
    folders.push(base);
    const dir = path.join(base, "model");
    const first = await PromptCacheTier.open(options(dir));
    // A file the first tier wrote and has not indexed yet: a second open would have swept it.
    const pending = path.join(dir, "pending.tmp");
    fs.writeFileSync(pending, "state being written");

    await expect(PromptCacheTier.open(options(dir))).rejects.toThrow(/another Perch process uses/);
    expect(fs.existsSync(pending)).toBe(true);

    await first.close();
    const second = await PromptCacheTier.open(options(dir));
    // The new holder swept what nobody indexed: the first one is gone.
    expect(fs.existsSync(pending)).toBe(false);
    await second.close();
  });

  it("takes over a lock left stale by a process that died", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-lock-"));
    folders.push(base);
    const dir = path.join(base, "model");
    fs.mkdirSync(`${dir}.lock`, { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(`${dir}.lock`, longAgo, longAgo);
    const tier = await PromptCacheTier.open(options(dir));
    expect(tier.isClosed).toBe(false);
    await tier.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });

  it("a fresh lock of another holder is not taken over", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-lock-"));
    folders.push(base);
    const dir = path.join(base, "model");
    fs.mkdirSync(`${dir}.lock`, { recursive: true });
    await expect(PromptCacheTier.open(options(dir))).rejects.toThrow(/another Perch process uses/);
    expect(fs.existsSync(`${dir}.lock`)).toBe(true);
  });
});

/**
 * A stand-in for a llama.cpp sequence: its state file has llama.cpp's header (magic, version, token
 * count, tokens) and no KV data, and each save or load waits for `release` (the context lock a
 * real one waits for), recording that it started.
 */
function heldSequence(tokens: number[], started: string[], name: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sequence = {
    contextTokens: tokens,
    saveStateToFile: async (file: string) => {
      started.push(`save ${name}`);
      await released;
      const data = Buffer.alloc(12 + 4 * sequence.contextTokens.length);
      data.writeUInt32LE(sequenceStateMagic, 0);
      data.writeUInt32LE(2, 4);
      data.writeUInt32LE(sequence.contextTokens.length, 8);
      sequence.contextTokens.forEach((token, index) => data.writeUInt32LE(token, 12 + 4 * index));
      fs.writeFileSync(file, data);
      return { fileSize: data.length };
    },
    loadStateFromFile: async (file: string) => {
      started.push(`load ${name}`);
      await released;
      sequence.contextTokens = readStateFileTokens(fs.readFileSync(file)) ?? [];
    },
  };
  return {
    sequence: sequence as unknown as StatefulSequence & { contextTokens: readonly number[] },
    release,
  };
}

describe("PromptCacheTier with several sequences", () => {
  it("saves and restores them at once, not one after another", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-overlap-"));
    folders.push(base);
    const tier = await PromptCacheTier.open(
      options(path.join(base, "model"), { ramBytes: 1 << 20, diskBytes: 0 }),
    );
    const started: string[] = [];
    const a = heldSequence([1, 2, 3, 4, 5, 6, 7, 8], started, "a");
    const b = heldSequence([9, 10, 11, 12, 13, 14, 15, 16], started, "b");

    const saves = [tier.save(a.sequence), tier.save(b.sequence)];
    // Serialised, b's save started only once a's had finished, which waits for a's release. Which
    // of the two starts first is the event loop's business: both must have started.
    await expect.poll(() => [...started].sort()).toEqual(["save a", "save b"]);
    b.release();
    a.release();
    expect(await Promise.all(saves)).toEqual([true, true]);

    // Both sequences now hold other prompts; each gets its own back.
    const c = heldSequence([0], started, "c");
    const d = heldSequence([0], started, "d");
    const matchA = tier.find([1, 2, 3, 4, 5, 6, 7, 8, 99]);
    const matchB = tier.find([9, 10, 11, 12, 13, 14, 15, 16, 99]);
    expect(matchA?.tokens).toBe(8);
    expect(matchB?.tokens).toBe(8);
    const restores = [tier.restore(matchA!, c.sequence), tier.restore(matchB!, d.sequence)];
    await expect.poll(() => started.slice(2).sort()).toEqual(["load c", "load d"]);
    d.release();
    c.release();
    expect(await Promise.all(restores)).toEqual(["restored", "restored"]);
    expect(c.sequence.contextTokens).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(d.sequence.contextTokens).toEqual([9, 10, 11, 12, 13, 14, 15, 16]);
    await tier.close();
  });

  it("a save that ends after close leaves no file behind", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-overlap-"));
    folders.push(base);
    const dir = path.join(base, "model");
    const tier = await PromptCacheTier.open(options(dir, { ramBytes: 1 << 20, diskBytes: 1 << 20 }));
    const started: string[] = [];
    const a = heldSequence([1, 2, 3, 4, 5, 6, 7, 8], started, "a");
    const save = tier.save(a.sequence);
    await expect.poll(() => started).toEqual(["save a"]);
    await tier.close();
    a.release();
    expect(await save).toBe(false);
    expect(fs.readdirSync(dir).filter((name) => name !== "index.json")).toEqual([]);
  });

  it("restores a disk entry that a concurrent save trims away meanwhile", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-overlap-"));
    folders.push(base);
    const dir = path.join(base, "model");
    // Room on disk for one entry (12 + 8 × 4 bytes), none in RAM.
    const tier = await PromptCacheTier.open(options(dir, { ramBytes: 0, diskBytes: 50 }));
    const started: string[] = [];
    const a = heldSequence([1, 2, 3, 4, 5, 6, 7, 8], started, "a");
    a.release();
    expect(await tier.save(a.sequence)).toBe(true);

    const c = heldSequence([0], started, "c");
    const restoring = tier.restore(tier.find([1, 2, 3, 4, 5, 6, 7, 8, 99])!, c.sequence);
    await expect.poll(() => started.at(-1)).toBe("load c");
    const b = heldSequence([9, 10, 11, 12, 13, 14, 15, 16], started, "b");
    b.release();
    expect(await tier.save(b.sequence)).toBe(true);
    // a's entry is gone (the disk holds one), its file too.
    expect(tier.find([1, 2, 3, 4, 5, 6, 7, 8, 99])).toBeUndefined();
    c.release();
    expect(await restoring).toBe("restored");
    expect(c.sequence.contextTokens).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await tier.close();
    // Only b's state and the index are left; no private copy stays behind.
    expect(fs.readdirSync(dir).sort()).toEqual(["index.json", expect.stringMatching(/\.state$/)].sort());
  });
});

describe("PromptCache at the tier's limit", () => {
  it("restores a returning conversation that the save before it would have trimmed as the oldest", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-full-"));
    folders.push(base);
    // Room on disk for two entries of 8 tokens (12 + 8 × 4 bytes each), none in RAM.
    const tier = await PromptCacheTier.open(
      options(path.join(base, "model"), { ramBytes: 0, diskBytes: 100 }),
    );
    const cache = new PromptCache(tier, 4);
    const started: string[] = [];
    const conversations = [
      [1, 2, 3, 4, 5, 6, 7, 8],
      [9, 10, 11, 12, 13, 14, 15, 16],
      [17, 18, 19, 20, 21, 22, 23, 24],
    ];
    const prompt = (tokens: number[]) => tokens as unknown as Token[];
    const slot = heldSequence([], started, "slot");
    slot.release();
    // Conversations 1 and 2 pass through the one slot and are saved as it is reused; 1 is the oldest.
    for (const [index, tokens] of conversations.entries()) {
      expect(await cache.prepare(slot.sequence, prompt([...tokens, 99]))).toBe(false);
      slot.sequence.contextTokens = prompt(tokens);
      if (index < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Conversation 1 comes back while the slot holds 3: 3 is saved (the tier is full) and 1 restored.
    expect(await cache.prepare(slot.sequence, prompt([...conversations[0]!, 99, 100]))).toBe(true);
    expect(slot.sequence.contextTokens).toEqual(conversations[0]);
    expect(cache.stats()).toMatchObject({ saves: 3, restoreFailures: 0, disk: { entries: 2 } });
    // The one trimmed to make room was conversation 2, the oldest of the others.
    expect(tier.find([...conversations[1]!, 99])).toBeUndefined();
    expect(tier.find([...conversations[2]!, 99])?.tokens).toBe(8);
    await tier.close();
  });

  it("on unload keeps the conversations used last, whatever order their slots are saved in", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-unload-"));
    folders.push(base);
    // Room on disk for two entries of 8 tokens, none in RAM.
    const tier = await PromptCacheTier.open(
      options(path.join(base, "model"), { ramBytes: 0, diskBytes: 100 }),
    );
    const cache = new PromptCache(tier, 4);
    const started: string[] = [];
    const slots = [1, 9, 17, 25].map((first) => {
      const slot = heldSequence(
        Array.from({ length: 8 }, (_v, index) => first + index),
        started,
        `slot ${first}`,
      );
      slot.release();
      return slot;
    });
    const now = Date.now();
    // Slots 0 and 1 were used last (a returning conversation hit them again), 2 and 3 before.
    await cache.close(
      slots.map((slot, index) => ({
        sequence: slot.sequence,
        usedAt: now - (index < 2 ? 1_000 : 60_000) + index,
      })),
    );
    const reopened = await PromptCacheTier.open(
      options(path.join(base, "model"), { ramBytes: 0, diskBytes: 100 }),
    );
    const kept = [1, 9, 17, 25].filter(
      (first) =>
        reopened.find([...Array.from({ length: 8 }, (_v, index) => first + index), 99]) !== undefined,
    );
    expect(kept).toEqual([1, 9]);
    await reopened.close();
  });

  it("a folder deleted under a running server is made again by the next save", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-gone-"));
    folders.push(base);
    const dir = path.join(base, "model");
    const tier = await PromptCacheTier.open(options(dir, { ramBytes: 0, diskBytes: 1000 }));
    const slot = heldSequence([1, 2, 3, 4, 5, 6, 7, 8], [], "slot");
    slot.release();
    fs.rmSync(dir, { recursive: true, force: true });
    expect(await tier.save(slot.sequence)).toBe(true);
    expect(tier.find([1, 2, 3, 4, 5, 6, 7, 8, 99])?.tokens).toBe(8);
    await tier.close();
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".state"))).toHaveLength(1);
  });
});

describe("PromptCache whose tier could not open when the model loaded", () => {
  it("says so in health, tries again at a later request, and caches once the folder opens", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "perch-tier-retry-"));
    folders.push(base);
    const dir = path.join(base, "model");
    // A file where the folder goes: the open fails (ENOTDIR/EEXIST), as a full disk's would.
    fs.writeFileSync(path.join(base, "blocker"), "");
    const blocked = path.join(base, "blocker", "model");
    let target = blocked;
    let attempts = 0;
    const health = new HealthRegistry();
    const failure = await PromptCacheTier.open(options(target)).catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    const cache = new PromptCache(undefined, 4, {
      reopen: async () => {
        try {
          return await PromptCacheTier.open(options(target, { ramBytes: 0, diskBytes: 1000 }));
        } finally {
          attempts += 1;
        }
      },
      unavailable: (failure as Error).message,
      retryMs: 0,
      health,
      modelId: "m",
      dir: blocked,
    });
    expect(await health.list()).toEqual([
      expect.objectContaining({ code: "storage_error", model_id: "m", path: blocked }),
    ]);
    const slot = heldSequence([1, 2, 3, 4, 5, 6, 7, 8], [], "slot");
    slot.release();
    const prompt = (tokens: number[]) => tokens as unknown as Token[];
    // Still blocked: the request goes on without a tier, the warning stays.
    expect(await cache.prepare(slot.sequence, prompt([9, 10, 11, 12, 13, 14, 15, 16]))).toBe(false);
    await waitFor(() => attempts === 1);
    expect(cache.stats().disk.limitBytes).toBe(0);
    expect(await health.list()).toHaveLength(1);
    // The disk has room again: the next request reopens the tier; the one after saves into it.
    target = dir;
    await cache.prepare(slot.sequence, prompt([9, 10, 11, 12, 13, 14, 15, 16]));
    await waitFor(() => cache.stats().disk.limitBytes === 1000);
    expect(await health.list()).toEqual([]);
    await cache.prepare(slot.sequence, prompt([17, 18, 19, 20, 21, 22, 23, 24]));
    expect(cache.stats()).toMatchObject({ saves: 1, disk: { entries: 1 } });
    await cache.close([]);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".state"))).toHaveLength(1);
  });

  it("does not try again before its retry time", async () => {
    let attempts = 0;
    const cache = new PromptCache(undefined, 4, {
      reopen: () => {
        attempts += 1;
        return Promise.reject(new Error("ENOSPC: no space left on device"));
      },
      unavailable: "ENOSPC: no space left on device",
      retryMs: 60_000,
      modelId: "m",
      dir: "/nowhere",
    });
    const slot = heldSequence([], [], "slot");
    slot.release();
    for (let i = 0; i < 3; i += 1) await cache.prepare(slot.sequence, [1, 2, 3] as unknown as Token[]);
    expect(attempts).toBe(0);
    await cache.close([]);
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}
