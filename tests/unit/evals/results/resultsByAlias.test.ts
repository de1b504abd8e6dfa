import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeTinyGguf } from "../../../helpers/writeTinyGguf.js";
import { buildAdminApp } from "../../catalog/buildAdminApp.js";

let base: string;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-results-alias-"));
  await writeTinyGguf(path.join(base, "models", "org", "m.gguf"));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("result routes by a model's alias", () => {
  it("list and reset find the results stored under the model's id", async () => {
    const { app, services } = await buildAdminApp(base);
    await services.modelSettings.merge("org/m", { alias: "Fav" });
    await services.accuracyResults.add({
      result_id: "acc-1",
      created_at: "2025-01-01T00:00:00.000Z",
      model_id: "org/m",
      benchmark: "gsm8k",
      accuracy: 0.5,
      total: 10,
    } as never);
    await services.performanceResults.add({
      result_id: "perf-1",
      created_at: "2025-01-01T00:00:00.000Z",
      model_id: "org/m",
      single: [{ prompt_tokens: 512, generated_tokens: 128, pp_tps: 900, tg_tps: 40, ttft_ms: 10 }],
    } as never);
    const ids = async (url: string) =>
      ((await app.inject({ method: "GET", url })).json() as { results: { result_id: string }[] }).results.map(
        (result) => result.result_id,
      );
    expect(await ids("/admin/api/bench/accuracy/results?model_id=Fav")).toEqual(["acc-1"]);
    expect(await ids("/admin/api/bench/results?model_id=fav:latest")).toEqual(["perf-1"]);
    const reset = await app.inject({
      method: "POST",
      url: "/admin/api/bench/accuracy/results/reset",
      payload: { model_id: "Fav" },
    });
    expect(reset.json()).toEqual({ deleted: 1 });
    const resetPerf = await app.inject({
      method: "POST",
      url: "/admin/api/bench/results/reset",
      payload: { model_id: "Fav" },
    });
    expect(resetPerf.json()).toEqual({ deleted: 1 });
    await app.close();
  });
});
