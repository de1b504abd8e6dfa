import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PromptCacheTier } from "../../../src-main/scheduler/promptCache/PromptCacheTier.js";

/**
 * Issue 16: two Perch processes on one base path shared a model's cache folder, and the second
 * one's open swept the files the first had not indexed yet. The folder is now locked by the tier
 * that opened it (proper-lockfile: `<dir>.lock`, refreshed while held).
 */

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function options(dir: string) {
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
    limits: () => ({ ramBytes: 1024, diskBytes: 1024 }),
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
