import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConversationStore } from "../../../src-main/chat/ConversationStore.js";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-conversations-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("ConversationStore", () => {
  it("writes one file per conversation and lists them, most recently changed first", async () => {
    let clock = Date.parse("2026-12-01T10:00:00Z");
    const dir = tempDir();
    const store = new ConversationStore({ dir, now: () => new Date((clock += 1000)) });
    const first = await store.create({ title: "First" });
    const second = await store.create({ title: "Second" });
    await store.update(first.id, (draft) => {
      draft.system_prompt = "Be brief.";
    });
    expect(fs.readdirSync(dir).sort()).toEqual([`${first.id}.json`, `${second.id}.json`].sort());
    expect((await store.list()).map((entry) => entry.title)).toEqual(["First", "Second"]);
    expect((await store.get(first.id)).system_prompt).toBe("Be brief.");
  });

  it("moves a corrupt file aside, reports it, and keeps listing the others", async () => {
    const dir = tempDir();
    const health = new HealthRegistry();
    const store = new ConversationStore({ dir, health });
    const good = await store.create({ title: "Good" });
    fs.writeFileSync(path.join(dir, "broken.json"), "{ not json");
    expect((await store.list()).map((entry) => entry.id)).toEqual([good.id]);
    expect(fs.readdirSync(dir).some((name) => name.startsWith("broken.json.corrupt-"))).toBe(true);
    expect((await health.list()).map((warning) => warning.code)).toContain("corrupt_file");
    await expect(store.get("broken")).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses ids that are not a file name of its own, and invalid content", async () => {
    const store = new ConversationStore({ dir: tempDir() });
    await expect(store.get("../settings")).rejects.toMatchObject({ code: "invalid_id" });
    const conversation = await store.create({});
    await expect(
      store.update(conversation.id, (draft) => {
        draft.title = "";
      }),
    ).rejects.toMatchObject({ code: "invalid_request" });
    expect((await store.get(conversation.id)).title).toBe("New chat");
  });
});
