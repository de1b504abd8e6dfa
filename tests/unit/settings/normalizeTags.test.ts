import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { normalizeTags } from "../../../src-main/settings/normalizeTags.js";
import { ModelSettingsStore } from "../../../src-main/settings/ModelSettingsStore.js";
import { suggestTags } from "../../../src-main/settings/suggestTags.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-tags-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe("tags", () => {
  it("trims, drops empty, de-duplicates case-insensitively keeping the first spelling, caps at 64", () => {
    const long = "x".repeat(70);
    expect(normalizeTags(["  MoE ", "moe", "", "   ", "Coding", "CODING", long, "x".repeat(64)])).toEqual([
      "MoE",
      "Coding",
      "x".repeat(64),
    ]);
    expect(normalizeTags(["😀".repeat(65)])).toEqual(["😀".repeat(64)]);
  });

  it("stores one NFC spelling and no control characters (they become spaces)", async () => {
    const precomposed = "caf\u00e9";
    const decomposed = "cafe\u0301";
    expect(normalizeTags([precomposed, decomposed, "CAFE\u0301"])).toEqual([precomposed]);
    expect(normalizeTags([decomposed])).toEqual([precomposed]);
    expect(
      normalizeTags(["a\u0000b", "new\nline", "tab\tin", "cr\r\n", "\u0007", "del\u007f", "x\u2028y"]),
    ).toEqual(["a b", "new line", "tab in", "cr", "del", "x y"]);
    // Emoji sequences keep their joiners (format characters, not control characters).
    expect(normalizeTags(["👩\u200d💻 dev"])).toEqual(["👩\u200d💻 dev"]);
    const store = new ModelSettingsStore({ basePath: dir });
    const saved = await store.set("org/repo/m", { tags: [precomposed, decomposed, "new\nline"] });
    expect(saved.tags).toEqual([precomposed, "new line"]);
  });

  it("round-trips normalized tags through the settings store and survives a restart", async () => {
    const store = new ModelSettingsStore({ basePath: dir });
    const saved = await store.set("org/repo/m", { tags: [" fast", "Fast", "chat ", ""] });
    expect(saved.tags).toEqual(["fast", "chat"]);
    const reopened = new ModelSettingsStore({ basePath: dir });
    expect(await reopened.get("org/repo/m")).toEqual({ tags: ["fast", "chat"] });
    expect(await reopened.get("unknown")).toEqual({});
  });

  it("suggests Dense or MoE from the header, never twice, never without a header", () => {
    const facts = {
      architecture: "llama",
      parameter_count: 1,
      quantization: null,
      context_length: null,
      name: null,
    };
    expect(suggestTags({ ...facts, expert_count: null }, [])).toEqual(["Dense"]);
    expect(suggestTags({ ...facts, expert_count: 8 }, [])).toEqual(["MoE"]);
    expect(suggestTags({ ...facts, expert_count: 8 }, ["moe"])).toEqual([]);
    expect(suggestTags({ ...facts, expert_count: null }, ["MoE", "x"])).toEqual([]);
    expect(suggestTags(null, [])).toEqual([]);
  });
});
