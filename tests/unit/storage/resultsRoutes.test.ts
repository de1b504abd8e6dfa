import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modelIdPath } from "../../../src-shared/contracts/catalog.js";
import { writeTinyGguf } from "../../helpers/writeTinyGguf.js";
import { buildAdminApp } from "../catalog/buildAdminApp.js";

let base: string;
beforeEach(async () => {
  base = await fs.mkdtemp(path.join(os.tmpdir(), "perch-results-routes-"));
  await writeTinyGguf(path.join(base, "models", "org", "m.gguf"));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const accuracy = (id: string, benchmark: string, value: number, day: number) => ({
  result_id: id,
  created_at: `2025-01-0${day}T00:00:00.000Z`,
  model_id: "org/m",
  benchmark,
  accuracy: value,
  total: 100,
});

const performance = (id: string, day: number, tests: [number, number, number, number][]) => ({
  result_id: id,
  created_at: `2025-01-0${day}T00:00:00.000Z`,
  model_id: "org/m",
  single: tests.map(([prompt, generated, pp, tg]) => ({
    prompt_tokens: prompt,
    generated_tokens: generated,
    pp_tps: pp,
    tg_tps: tg,
    ttft_ms: 10,
  })),
});

describe("benchmark result routes and catalog summaries", () => {
  it("keeps results across a restart; delete and reset update latest, best, best by benchmark and pp/tg", async () => {
    const first = await buildAdminApp(base);
    await first.services.accuracyResults.add(accuracy("acc-1", "gsm8k", 0.6, 1));
    await first.services.accuracyResults.add(accuracy("acc-2", "humaneval", 0.8, 2));
    await first.services.accuracyResults.add(accuracy("acc-3", "gsm8k", 0.7, 3));
    await first.services.performanceResults.add(
      performance("perf-1", 1, [
        [512, 128, 900, 40],
        [1024, 128, 1000, 50],
      ]),
    );
    await first.services.performanceResults.add(performance("perf-2", 2, [[2048, 128, 800, 30]]));
    await first.app.close();

    // "Restart": new services and server over the same folder.
    const { app } = await buildAdminApp(base);
    const listed = await app.inject({ method: "GET", url: "/admin/api/bench/accuracy/results" });
    expect(listed.json().results.map((r: { result_id: string }) => r.result_id)).toEqual([
      "acc-3",
      "acc-2",
      "acc-1",
    ]);
    const perfListed = await app.inject({
      method: "GET",
      url: "/admin/api/bench/results?model_id=org%2Fm&limit=1",
    });
    expect(perfListed.json().results.map((r: { result_id: string }) => r.result_id)).toEqual(["perf-2"]);
    expect(
      (await app.inject({ method: "GET", url: "/admin/api/bench/results/perf-1" })).json(),
    ).toMatchObject({
      result_id: "perf-1",
    });

    const row = async () =>
      (await app.inject({ method: "GET", url: `/admin/api/models/${modelIdPath("org/m")}` })).json();
    expect((await row()).accuracy).toEqual({
      latest: {
        result_id: "acc-3",
        benchmark: "gsm8k",
        accuracy: 0.7,
        created_at: "2025-01-03T00:00:00.000Z",
        earlier_model_file: false,
      },
      best: {
        result_id: "acc-2",
        benchmark: "humaneval",
        accuracy: 0.8,
        created_at: "2025-01-02T00:00:00.000Z",
        earlier_model_file: false,
      },
      best_by_benchmark: {
        gsm8k: {
          accuracy: 0.7,
          result_id: "acc-3",
          created_at: "2025-01-03T00:00:00.000Z",
          earlier_model_file: false,
        },
        humaneval: {
          accuracy: 0.8,
          result_id: "acc-2",
          created_at: "2025-01-02T00:00:00.000Z",
          earlier_model_file: false,
        },
      },
    });
    // Newest performance result, nearest test to 1024/128 (it only measured 2048/128).
    expect((await row()).performance).toMatchObject({
      result_id: "perf-2",
      pp_tps: 800,
      tg_tps: 30,
      prompt_tokens: 2048,
    });

    const deleted = await app.inject({ method: "DELETE", url: "/admin/api/bench/accuracy/results/acc-2" });
    expect(deleted.json()).toEqual({ deleted: true, result_id: "acc-2" });
    expect((await row()).accuracy.best).toMatchObject({ result_id: "acc-3", accuracy: 0.7 });
    expect(Object.keys((await row()).accuracy.best_by_benchmark)).toEqual(["gsm8k"]);

    expect((await app.inject({ method: "DELETE", url: "/admin/api/bench/results/perf-2" })).statusCode).toBe(
      200,
    );
    expect((await row()).performance).toMatchObject({
      result_id: "perf-1",
      pp_tps: 1000,
      tg_tps: 50,
      prompt_tokens: 1024,
    });

    const reset = await app.inject({ method: "POST", url: "/admin/api/bench/accuracy/results/reset" });
    expect(reset.json()).toEqual({ deleted: 2 });
    expect((await row()).accuracy).toEqual({ latest: null, best: null, best_by_benchmark: {} });
    const perfReset = await app.inject({
      method: "POST",
      url: "/admin/api/bench/results/reset",
      payload: { model_id: "org/m" },
    });
    expect(perfReset.json()).toEqual({ deleted: 1 });
    expect((await row()).performance).toBeNull();
    await app.close();

    const again = await buildAdminApp(base);
    expect((await again.app.inject({ method: "GET", url: "/admin/api/bench/results" })).json()).toEqual({
      results: [],
    });
    await again.app.close();
  });

  it("answers 400 invalid_id for malformed ids and 404 result_not_found for unknown ones", async () => {
    const { app } = await buildAdminApp(base);
    for (const prefix of ["/admin/api/bench/results", "/admin/api/bench/accuracy/results"]) {
      for (const bad of ["..%2F..%2Fsettings", "a.json", "x%00"]) {
        const response = await app.inject({ method: "DELETE", url: `${prefix}/${bad}` });
        expect(response.statusCode).toBe(400);
        expect(response.json().error.code).toBe("invalid_id");
      }
      const unknown = await app.inject({ method: "DELETE", url: `${prefix}/nope` });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe("result_not_found");
      const badBody = await app.inject({
        method: "POST",
        url: `${prefix}/reset`,
        payload: { everything: true },
      });
      expect(badBody.statusCode).toBe(400);
    }
    await app.close();
  });

  it("reports a corrupt result file in /admin/api/health and keeps serving the rest", async () => {
    const dir = path.join(base, "benchmarks", "accuracy", "results");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "ok-1.json"), JSON.stringify(accuracy("ok-1", "mmlu", 0.5, 1)));
    await fs.writeFile(path.join(dir, "bad-1.json"), '{"result_id": "bad-1"');
    const { app } = await buildAdminApp(base);
    const listed = await app.inject({ method: "GET", url: "/admin/api/bench/accuracy/results" });
    expect(listed.json().results).toHaveLength(1);
    const health = (await app.inject({ method: "GET", url: "/admin/api/health" })).json();
    expect(health.status).toBe("degraded");
    expect(health.warnings).toEqual([
      expect.objectContaining({ code: "corrupt_file", path: expect.stringContaining("bad-1.json.corrupt-") }),
    ]);
    await app.close();
  });
});
