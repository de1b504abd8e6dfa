import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LlamaModel, type LlamaContext } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import type { GenerationRequest, GenerationResult } from "../../../src-main/scheduler/GenerationRequest.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { EnginePool } from "../../../src-main/engine/EnginePool.js";
import { createLlamaProvider } from "../../../src-main/engine/createLlamaProvider.js";
import { Scheduler } from "../../../src-main/scheduler/Scheduler.js";
import { recordDecodes } from "../../helpers/recordDecodes.js";
import { ensureTestModels } from "../../helpers/testModels.js";
import { createSchedulerFixture, greedyRequest, type SchedulerFixture } from "./schedulerFixture.js";

/**
 * Issue 16: the prompt cache. A conversation's state saved when its sequence is reused for another
 * prompt (RAM or disk tier) and restored for its next turn gives byte-identical greedy output to a
 * full evaluation, also after a restart (a new scheduler on the same folder); a corrupt or
 * truncated state file is removed and never loaded; a changed load setting empties the folder.
 */

const blockSize = 32;
const words = ["alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "ember", "north", "quiet"];

/** A long, distinct system prompt per conversation (a few hundred tokens). */
function conversation(name: string, seed: number): string {
  const text = Array.from({ length: 120 }, (_, index) => words[(index * seed + seed) % words.length]);
  return `Conversation ${name}. ${text.join(" ")}`;
}

function turn(system: string, question: string): GenerationRequest["prompt"] {
  return {
    kind: "chat",
    messages: [
      { role: "system", content: system },
      { role: "user", content: question },
    ],
  };
}

const A = conversation("A", 3);
const B = conversation("B", 7);
const prompts = {
  a1: turn(A, "first question about alpha"),
  b1: turn(B, "a question about beta"),
  a2: turn(A, "second question about the river"),
  a3: turn(A, "third question about stones"),
};

let counter = 0;
const run = (fixture: SchedulerFixture, modelId: string, prompt: GenerationRequest["prompt"]) =>
  fixture.scheduler.generate(greedyRequest(`r${(counter += 1)}`, modelId, prompt, { maxTokens: 24 }));

const statsOf = (fixture: SchedulerFixture, modelId: string) => {
  const stats = fixture.scheduler.stats().models.find((model) => model.modelId === modelId);
  if (!stats) throw new Error(`no stats for ${modelId}`);
  return stats.promptCache;
};

/** One sequence, so every new conversation evicts the previous one. */
const oneSlot: ModelSettings = { context_size: 2048, max_concurrent_requests: 1 };

const stateFiles = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true })
        .map(String)
        .filter((name) => name.endsWith(".state"))
        .map((name) => path.join(dir, name))
    : [];

let baseline: Record<keyof typeof prompts, GenerationResult>;
const folders: string[] = [];
const tempFolder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-kv-"));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  // Without a tier: every prompt after another conversation is evaluated in full.
  const fixture = await createSchedulerFixture({ m: { file: "main", settings: oneSlot } });
  try {
    const results: Partial<typeof baseline> = {};
    for (const name of ["a1", "b1", "a2", "b1", "a3"] as const)
      results[name] = await run(fixture, "m", prompts[name]);
    baseline = results as typeof baseline;
  } finally {
    await fixture.close();
  }
  expect(baseline.a2.usage.cachedPromptTokens).toBeLessThan(blockSize);
  expect(baseline.a3.usage.cachedPromptTokens).toBeLessThan(blockSize);
  expect(baseline.a2.usage.promptTokens).toBeGreaterThan(8 * blockSize);
});

afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe("prompt cache tiers", () => {
  for (const tier of ["ram", "disk"] as const) {
    it(`restores an evicted conversation from the ${tier} tier with identical greedy output`, async () => {
      const dir = tempFolder();
      const settings: ModelSettings = {
        ...oneSlot,
        prompt_cache_ram_mib: tier === "ram" ? 64 : 0,
        prompt_cache_disk_mib: tier === "disk" ? 64 : 0,
      };
      const fixture = await createSchedulerFixture(
        { m: { file: "main", settings } },
        { promptCache: { dir, blockSize } },
      );
      try {
        await run(fixture, "m", prompts.a1);
        await run(fixture, "m", prompts.b1);
        expect(statsOf(fixture, "m")[tier].entries).toBe(1);
        expect(stateFiles(dir)).toHaveLength(tier === "disk" ? 1 : 0);
        const a2 = await run(fixture, "m", prompts.a2);
        expect(a2.text).toBe(baseline.a2.text);
        expect(a2.usage.cachedPromptTokens).toBeGreaterThan(8 * blockSize);
        const stats = statsOf(fixture, "m");
        expect(stats.tierHits).toBe(1);
        expect(stats.saves).toBe(2);
        expect(stats.restoreFailures).toBe(0);
      } finally {
        await fixture.close();
      }
    });
  }

  it("spills RAM to disk beyond the RAM limit and restores from both", async () => {
    const dir = tempFolder();
    // 1 MiB of RAM holds three of these states (~330 kB on the test model).
    const fixture = await createSchedulerFixture(
      { m: { file: "main", settings: { ...oneSlot, prompt_cache_ram_mib: 1, prompt_cache_disk_mib: 64 } } },
      { promptCache: { dir, blockSize } },
    );
    try {
      const others = ["C", "D", "E", "F"].map((name, index) => turn(conversation(name, index + 11), "hello"));
      // Saved in this order as each next one evicts it: A, C, D, B, E (F stays in the sequence).
      for (const prompt of [prompts.a1, others[0]!, others[1]!, prompts.b1, others[2]!, others[3]!]) {
        await run(fixture, "m", prompt);
      }
      let stats = statsOf(fixture, "m");
      expect(stats.saves).toBe(5);
      expect(stats.ram.bytes).toBeLessThanOrEqual(2 ** 20);
      expect(stats.ram.entries).toBeGreaterThanOrEqual(2);
      expect(stats.disk.entries).toBe(5 - stats.ram.entries);
      expect(stateFiles(dir)).toHaveLength(stats.disk.entries);
      const a2 = await run(fixture, "m", prompts.a2); // A, the oldest, spilled to disk
      expect(a2.text).toBe(baseline.a2.text);
      const b1 = await run(fixture, "m", prompts.b1); // B, recent, still in RAM
      expect(b1.text).toBe(baseline.b1.text);
      expect(b1.usage.cachedPromptTokens).toBeGreaterThan(8 * blockSize);
      stats = statsOf(fixture, "m");
      expect(stats.tierHits).toBe(2);
      expect(stats.restoreFailures).toBe(0);
    } finally {
      await fixture.close();
    }
  });

  it("applies lowered limits at once: set to 0 it keeps nothing, in memory or on disk, and restores nothing", async () => {
    const dir = tempFolder();
    const settings: ModelSettings = { ...oneSlot, prompt_cache_ram_mib: 1, prompt_cache_disk_mib: 64 };
    const fixture = await createSchedulerFixture(
      { m: { file: "main", settings } },
      { promptCache: { dir, blockSize } },
    );
    try {
      const others = ["C", "D", "E", "F"].map((name, index) => turn(conversation(name, index + 11), "hello"));
      for (const prompt of [prompts.a1, others[0]!, others[1]!, prompts.b1, others[2]!, others[3]!])
        await run(fixture, "m", prompt);
      expect(stateFiles(dir).length).toBeGreaterThan(0);
      // As the settings route applies them (README: "0 = off, applied at once").
      fixture.engine.applySettings("m", { ...settings, prompt_cache_ram_mib: 0, prompt_cache_disk_mib: 0 });
      await vi.waitFor(() => {
        expect(statsOf(fixture, "m")).toMatchObject({
          ram: { entries: 0, bytes: 0 },
          disk: { entries: 0, bytes: 0 },
        });
        expect(stateFiles(dir)).toEqual([]);
      });
      const a2 = await run(fixture, "m", prompts.a2);
      expect(a2.text).toBe(baseline.a2.text);
      expect(statsOf(fixture, "m").tierHits).toBe(0);
    } finally {
      await fixture.close();
    }
    expect(stateFiles(dir)).toEqual([]);
  });

  const models = { m: { file: "main" as const, settings: { ...oneSlot, prompt_cache_ram_mib: 0 } } };

  /** A and B saved to disk: A when B evicted it, B when the model unloaded. */
  async function savedTwoConversations(dir: string): Promise<string[]> {
    const first = await createSchedulerFixture(models, { promptCache: { dir, blockSize } });
    await run(first, "m", prompts.a1);
    await run(first, "m", prompts.b1);
    await first.close();
    const files = stateFiles(dir);
    expect(files).toHaveLength(2);
    // Owner-only (SECURITY.md): a state file holds its prompt's tokens in clear.
    for (const file of files) expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    return files;
  }

  /** Runs `prompt`: the baseline's text, with its prompt evaluated in full (nothing restored). */
  async function expectEvaluatedInFull(
    fixture: SchedulerFixture,
    prompt: keyof typeof prompts,
    expected: { restoreFailures?: number } = {},
  ): Promise<void> {
    const result = await run(fixture, "m", prompts[prompt]);
    expect(result.text).toBe(baseline[prompt].text);
    expect(result.usage.cachedPromptTokens).toBeLessThan(blockSize);
    const stats = statsOf(fixture, "m");
    expect(stats.tierHits).toBe(0);
    if (expected.restoreFailures !== undefined) expect(stats.restoreFailures).toBe(expected.restoreFailures);
  }

  it("survives a restart: a new scheduler on the same folder restores with identical output", async () => {
    const dir = tempFolder();
    await savedTwoConversations(dir);
    const second = await createSchedulerFixture(models, { promptCache: { dir, blockSize } });
    try {
      const a2 = await run(second, "m", prompts.a2);
      expect(a2.text).toBe(baseline.a2.text);
      expect(a2.usage.cachedPromptTokens).toBeGreaterThan(8 * blockSize);
      const b1 = await run(second, "m", prompts.b1);
      expect(b1.text).toBe(baseline.b1.text);
      expect(statsOf(second, "m").tierHits).toBe(2);
    } finally {
      await second.close();
    }
  });

  it("removes a corrupt or truncated state file instead of loading it, and evaluates the prompt", async () => {
    const dir = tempFolder();
    const files = await savedTwoConversations(dir);
    // Same size, one byte flipped in the middle of each file.
    const flip = (file: string) => {
      const data = fs.readFileSync(file);
      data[data.length >> 1] ^= 0xff;
      fs.writeFileSync(file, data);
    };
    files.forEach(flip);
    const second = await createSchedulerFixture(models, { promptCache: { dir, blockSize } });
    try {
      await expectEvaluatedInFull(second, "a2", { restoreFailures: 1 });
      expect(files.filter((file) => fs.existsSync(file))).toHaveLength(1);
    } finally {
      await second.close();
    }

    const truncatedDir = tempFolder();
    const truncated = await savedTwoConversations(truncatedDir);
    for (const file of truncated) fs.truncateSync(file, fs.statSync(file).size >> 1);
    const third = await createSchedulerFixture(models, { promptCache: { dir: truncatedDir, blockSize } });
    try {
      await expectEvaluatedInFull(third, "b1");
      for (const file of truncated) expect(fs.existsSync(file)).toBe(false);
    } finally {
      await third.close();
    }
  });

  it("answers correctly when llama.cpp rejects a file that passed verification, on a slot holding other tokens", async () => {
    const dir = tempFolder();
    const files = await savedTwoConversations(dir);
    // Another state format version: the checksum, size and tokens in the index still match (the
    // index is rewritten below), so only llama.cpp itself can refuse the file.
    const indexFile = fs
      .readdirSync(dir, { recursive: true })
      .map(String)
      .find((name) => name.endsWith("index.json"));
    const indexPath = path.join(dir, indexFile!);
    const index = JSON.parse(fs.readFileSync(indexPath, "utf8")) as {
      entries: { id: string; sha256: string }[];
    };
    for (const file of files) {
      const data = fs.readFileSync(file);
      data.writeUInt32LE(data.readUInt32LE(4) + 1, 4);
      fs.writeFileSync(file, data);
      const entry = index.entries.find((candidate) => file.endsWith(`${candidate.id}.state`));
      entry!.sha256 = createHash("sha256").update(data).digest("hex");
    }
    fs.writeFileSync(indexPath, JSON.stringify(index));
    const second = await createSchedulerFixture(models, { promptCache: { dir, blockSize } });
    try {
      // The only slot holds a third prompt when A's rejected file is loaded into it.
      await run(second, "m", turn(conversation("C", 9), "a question about clouds"));
      await expectEvaluatedInFull(second, "a2", { restoreFailures: 1 });
    } finally {
      await second.close();
    }
  });

  it("empties the folder when a load setting that shapes the state changes", async () => {
    const dir = tempFolder();
    const settings = { ...oneSlot, prompt_cache_ram_mib: 0 };
    const first = await createSchedulerFixture(
      { m: { file: "main", settings } },
      { promptCache: { dir, blockSize } },
    );
    await run(first, "m", prompts.a1);
    await first.close();
    expect(stateFiles(dir)).toHaveLength(1);

    const second = await createSchedulerFixture(
      { m: { file: "main", settings: { ...settings, context_size: 1536 } } },
      { promptCache: { dir, blockSize } },
    );
    try {
      const a2 = await run(second, "m", prompts.a2);
      expect(stateFiles(dir)).toHaveLength(0);
      expect(a2.text).toBe(baseline.a2.text);
      expect(statsOf(second, "m").tierHits).toBe(0);
    } finally {
      await second.close();
    }
  });

  it("empties the folder when the model file changes, and never serves one model's state to another", async () => {
    const dir = tempFolder();
    const modelFile = path.join(tempFolder(), "copy.gguf");
    fs.copyFileSync((await ensureTestModels()).main, modelFile);
    const settings = { ...oneSlot, prompt_cache_ram_mib: 0 };
    const open = () => {
      const engine = new EnginePool({
        getLlama: createLlamaProvider({ gpu: false }),
        resolveModel: async (id) => {
          if (id !== "copy") throw new PerchError("model_not_found", `No model '${id}'`);
          return { id, path: modelFile, settings };
        },
        threads: 1,
        defaultTtlSeconds: 0,
      });
      return { engine, scheduler: new Scheduler({ engine, promptCache: { dir, blockSize } }) };
    };
    const ask = (scheduler: Scheduler, modelId: string, prompt: GenerationRequest["prompt"]) =>
      scheduler.generate(greedyRequest(`r${(counter += 1)}`, modelId, prompt, { maxTokens: 24 }));

    const first = open();
    await ask(first.scheduler, "copy", prompts.a1);
    await first.engine.unloadAll();
    expect(stateFiles(dir)).toHaveLength(1);

    // Another model (the main test model under another id and path) on the same folder: no hit.
    const other = await createSchedulerFixture(
      { m: { file: "main", settings } },
      { promptCache: { dir, blockSize } },
    );
    try {
      const a2 = await run(other, "m", prompts.a2);
      expect(a2.usage.cachedPromptTokens).toBeLessThan(blockSize);
      expect(statsOf(other, "m").tierHits).toBe(0);
    } finally {
      await other.close();
    }

    // The same bytes under a new modification time count as a new model file.
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(modelFile, later, later);
    const second = open();
    try {
      const a2 = await ask(second.scheduler, "copy", prompts.a2);
      expect(a2.text).toBe(baseline.a2.text);
      expect(a2.usage.cachedPromptTokens).toBeLessThan(blockSize);
      const folder = fs.readdirSync(dir).find((name) => stateFiles(path.join(dir, name)).length === 0);
      expect(folder).toBeDefined();
    } finally {
      await second.engine.unloadAll();
    }
  });

  it("a cache that cannot write never fails a request: the prompt is evaluated in full", async () => {
    // A folder that cannot be created (a file is in the way): the lane runs without a tier.
    const blocked = path.join(tempFolder(), "file");
    fs.writeFileSync(blocked, "not a folder");
    const withoutTier = await createSchedulerFixture(
      { m: { file: "main", settings: oneSlot } },
      { promptCache: { dir: path.join(blocked, "kv"), blockSize } },
    );
    try {
      expect((await run(withoutTier, "m", prompts.a1)).text).toBe(baseline.a1.text);
      expect(statsOf(withoutTier, "m").disk.limitBytes).toBe(0);
    } finally {
      await withoutTier.close();
    }

    // A folder removed under a running model (a user clearing caches): the next save makes it
    // again, and the conversation saved after the removal comes back from it.
    const dir = tempFolder();
    const fixture = await createSchedulerFixture(
      { m: { file: "main", settings: { ...oneSlot, prompt_cache_ram_mib: 0 } } },
      { promptCache: { dir, blockSize } },
    );
    try {
      await run(fixture, "m", prompts.a1);
      fs.rmSync(dir, { recursive: true, force: true });
      expect((await run(fixture, "m", prompts.b1)).text).toBe(baseline.b1.text);
      const a2 = await run(fixture, "m", prompts.a2);
      expect(a2.text).toBe(baseline.a2.text);
      expect(a2.usage.cachedPromptTokens).toBeGreaterThan(8 * blockSize);
      const stats = statsOf(fixture, "m");
      expect(stats.saves).toBeGreaterThan(0);
      expect(stats.tierHits).toBe(1);
      expect(fs.existsSync(dir)).toBe(true);
    } finally {
      await fixture.close();
    }
  });

  it("a restored sequence starts with no speculative state: lookup speculation gives the same text", async () => {
    const dir = tempFolder();
    const fixture = await createSchedulerFixture(
      { m: { file: "main", settings: { ...oneSlot, speculative: { mode: "lookup" } } } },
      { promptCache: { dir, blockSize } },
    );
    try {
      await run(fixture, "m", prompts.a1);
      await run(fixture, "m", prompts.b1);
      const a2 = await run(fixture, "m", prompts.a2);
      expect(a2.text).toBe(baseline.a2.text);
      const stats = fixture.scheduler.stats().models[0]!;
      expect(stats.promptCache.tierHits).toBe(1);
      expect(stats.speculation.owner).toBeNull();
      expect(stats.speculation.sessionsDropped).toBe(stats.speculation.sessionsCreated);
    } finally {
      await fixture.close();
    }
  });
});

describe("prefix routing", () => {
  let fixture: SchedulerFixture;
  beforeAll(async () => {
    fixture = await createSchedulerFixture({
      r: { file: "main", settings: { context_size: 4096, max_concurrent_requests: 4 } },
    });
  });
  afterAll(() => fixture.close());

  it("sends a returning conversation to the sequence that holds its prefix, among four", async () => {
    const names = ["A", "B", "C", "D"];
    for (const [index, name] of names.entries()) {
      await run(fixture, "r", turn(conversation(name, index + 3), "first"));
    }
    // B was neither the last used nor the least recently used sequence.
    const again = await run(fixture, "r", turn(conversation("B", 4), "second"));
    expect(again.usage.cachedPromptTokens).toBeGreaterThan(again.usage.promptTokens - 12);
    const stats = fixture.scheduler.stats().models[0]!.promptCache;
    expect(stats.slotHits).toBeGreaterThanOrEqual(1);
    expect(stats.tierHits).toBe(0);
  });

  it("evaluates the prompts of requests arriving together in shared decodes, though each first saves its sequence", async () => {
    const createContext = vi.spyOn(LlamaModel.prototype, "createContext");
    const fixture = await createSchedulerFixture(
      { m: { file: "main", settings: { context_size: 1024, max_concurrent_requests: 4 } } },
      { promptCache: { dir: tempFolder(), blockSize } },
    );
    try {
      const round = (tag: string) =>
        Promise.all(
          [3, 5, 7, 9].map((seed, index) =>
            run(fixture, "m", turn(conversation(`${tag}${index}`, seed), "a question")),
          ),
        );
      await round("first");
      const context = (await createContext.mock.results.at(-1)!.value) as LlamaContext;
      const decodes = recordDecodes(context);
      const savesBefore = statsOf(fixture, "m").saves;
      await round("second");
      // Every sequence held a conversation worth saving before its new prompt.
      expect(statsOf(fixture, "m").saves - savesBefore).toBe(4);
      // Without gathering the first request ready started its prompt alone, the rest followed.
      const promptDecodes = decodes.filter((items) => items.some((item) => item.tokens > 1));
      expect(promptDecodes.length).toBeGreaterThan(0);
      expect(promptDecodes.map((items) => items.length)).toEqual(promptDecodes.map(() => 4));
    } finally {
      createContext.mockRestore();
      await fixture.close();
    }
  });
});
