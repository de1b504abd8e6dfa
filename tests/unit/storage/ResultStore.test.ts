import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accuracyResultCoreSchema } from "../../../src-shared/contracts/results.js";
import { createResultId } from "../../../src-main/storage/createResultId.js";
import { HealthRegistry } from "../../../src-main/storage/HealthRegistry.js";
import { ResultStore, type ResultChange } from "../../../src-main/storage/ResultStore.js";

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "perch-results-"));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const open = (health?: HealthRegistry) =>
  new ResultStore({
    dir: path.join(dir, "results"),
    schema: accuracyResultCoreSchema,
    label: "accuracy result",
    health,
  });

const result = (id: string, modelId = "m", accuracy = 0.5, createdAt = "2025-01-01T00:00:00.000Z") => ({
  result_id: id,
  created_at: createdAt,
  model_id: modelId,
  benchmark: "gsm8k",
  accuracy,
  total: 10,
});

describe("ResultStore", () => {
  it("persists one file per result; a new instance over the folder sees them", async () => {
    const store = open();
    await store.add(result("r1", "m", 0.5, "2025-01-01T00:00:00.000Z"));
    await store.add(result("r2", "m", 0.7, "2025-01-02T00:00:00.000Z"));
    expect((await fs.readdir(path.join(dir, "results"))).sort()).toEqual(["r1.json", "r2.json"]);
    const reopened = open();
    expect((await reopened.list()).map((r) => r.result_id)).toEqual(["r2", "r1"]);
    expect(await reopened.get("r1")).toMatchObject({ accuracy: 0.5 });
  });

  it("validates ids: malformed → invalid_id, unknown → result_not_found, duplicate → conflict", async () => {
    const store = open();
    await store.add(result("r1"));
    for (const bad of ["../etc/passwd", "a/b", "..", "", "a.json", "x".repeat(129), "a\u0000b"]) {
      await expect(store.get(bad)).rejects.toMatchObject({ code: "invalid_id", status: 400 });
    }
    await expect(store.get("nope")).rejects.toMatchObject({ code: "result_not_found", status: 404 });
    await expect(store.delete("nope")).rejects.toMatchObject({ code: "result_not_found" });
    await expect(store.add(result("r1"))).rejects.toMatchObject({ code: "conflict" });
    await expect(store.add({ ...result("r9"), accuracy: 2 })).rejects.toMatchObject({
      code: "invalid_request",
    });
    await expect(store.add(result("../up"))).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("deletes, resets (all or one model) and tells listeners", async () => {
    const store = open();
    const changes: ResultChange[] = [];
    store.onChange((change) => changes.push(change));
    await store.add(result("a1", "a"));
    await store.add(result("a2", "a"));
    await store.add(result("b1", "b"));
    await store.delete("a1");
    expect(await store.reset({ model_id: "a" })).toBe(1);
    expect((await store.list()).map((r) => r.result_id)).toEqual(["b1"]);
    expect(await store.reset()).toBe(1);
    expect(await open().list()).toEqual([]);
    expect(changes.map((change) => [change.type, change.model_ids])).toEqual([
      ["added", ["a"]],
      ["added", ["a"]],
      ["added", ["b"]],
      ["deleted", ["a"]],
      ["reset", ["a"]],
      ["reset", ["b"]],
    ]);
  });

  it("moves an unreadable result aside and reports it; the others still load", async () => {
    const results = path.join(dir, "results");
    await fs.mkdir(results, { recursive: true });
    await fs.writeFile(path.join(results, "good.json"), JSON.stringify(result("good")));
    await fs.writeFile(path.join(results, "broken.json"), "{");
    await fs.writeFile(path.join(results, "renamed.json"), JSON.stringify(result("other")));
    const health = new HealthRegistry();
    const store = open(health);
    expect((await store.list()).map((r) => r.result_id)).toEqual(["good"]);
    const names = await fs.readdir(results);
    expect(names.filter((name) => name.includes(".corrupt-"))).toHaveLength(2);
    expect((await health.list()).map((warning) => warning.code)).toEqual(["corrupt_file", "corrupt_file"]);
  });

  it("creates sortable, valid ids", () => {
    const id = createResultId("acc", new Date("2025-03-04T05:06:07.890Z"));
    expect(id).toMatch(/^acc-20250304T050607Z-[0-9a-f]{8}$/);
  });
});

describe("ResultStore beside another process", () => {
  it("lists and announces a result another process saved, and drops one it deleted", async () => {
    const server = open();
    const changes: ResultChange[] = [];
    server.onChange((change) => changes.push(change));
    expect(await server.list()).toEqual([]);
    // `perch eval run --dataset` in its own process, while the server runs.
    const cli = open();
    await cli.add(result("from-cli", "m2"));
    expect((await server.list()).map((r) => r.result_id)).toEqual(["from-cli"]);
    expect(await server.get("from-cli")).toMatchObject({ model_id: "m2" });
    expect(changes).toEqual([{ type: "added", result_ids: ["from-cli"], model_ids: ["m2"] }]);
    await cli.delete("from-cli");
    expect(await server.list()).toEqual([]);
    expect(changes.at(-1)).toEqual({ type: "deleted", result_ids: ["from-cli"], model_ids: ["m2"] });
    // Its own saves are not announced twice.
    await server.add(result("own"));
    expect((await server.list()).map((r) => r.result_id)).toEqual(["own"]);
    expect(changes.filter((change) => change.result_ids.includes("own"))).toHaveLength(1);
  });

  it("a model's summary follows a result another process saved, without anyone listing first", async () => {
    const { ModelSummaries } = await import("../../../src-main/catalog/ModelSummaries.js");
    const server = open();
    const summaries = new ModelSummaries({ accuracy: server });
    expect((await summaries.get("m2")).accuracy.latest).toBeNull();
    await open().add(result("from-cli", "m2", 0.75));
    expect((await summaries.get("m2")).accuracy.latest).toMatchObject({ result_id: "from-cli" });
    summaries.dispose();
  });
});
