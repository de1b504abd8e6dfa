import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HealthResponse } from "../../../src-shared/contracts/catalog.js";
import { createCore } from "../../../src-main/core/createCore.js";
import { startServer } from "../../../src-main/server/startServer.js";
import {
  buildCrashChild,
  checkBaseFolder,
  runCrashRounds,
  withCrashChild,
} from "../../helpers/crashRounds.js";
import { sampleAccuracyResult, samplePerformanceResult } from "../../helpers/sampleResults.js";

describe("crash safety", () => {
  let bundle: string;
  const folders: string[] = [];
  const tempBase = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), "perch-crash-"));
    folders.push(folder);
    return folder;
  };

  beforeAll(async () => {
    bundle = await buildCrashChild();
  });

  afterAll(() => {
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    if (bundle) fs.rmSync(bundle, { force: true });
  });

  it("SIGKILL at 50 random moments while results, settings and the catalog are written leaves every file whole or absent", async () => {
    const basePath = tempBase();
    const report = await runCrashRounds(bundle, { basePath, rounds: 50, seed: 5, maxKillDelayMs: 500 });
    console.info(
      `crash: ${report.rounds} kills (${report.killedDuringStartup} during start-up) in ${Math.round(report.wallMs)} ms; ` +
        `${report.adminWrites} admin writes answered, ${report.resultsWritten} results written; ` +
        `${report.tempFilesLeft} temp files left (never read as data)`,
    );
    expect(report.problems).toEqual([]);
    expect(report.rounds).toBe(50);
    // The kills really landed among writes (each one fsyncs, so a round completes only a few).
    expect(report.adminWrites).toBeGreaterThan(0);
    expect(report.resultsWritten).toBeGreaterThan(0);

    // A server started on what the kills left reads it all: nothing is corrupt, every result is listed.
    const onDisk = checkBaseFolder(basePath);
    await withCrashChild(bundle, basePath, async (baseUrl) => {
      const health = (await (await fetch(`${baseUrl}/admin/api/health`)).json()) as HealthResponse;
      expect(health.warnings.filter((warning) => warning.code === "corrupt_file")).toEqual([]);
      const listed = (await (await fetch(`${baseUrl}/admin/api/bench/results`)).json()) as {
        results: { result_id: string }[];
      };
      expect(new Set(listed.results.map((result) => result.result_id))).toEqual(onDisk.results.performance);
      const accuracy = (await (await fetch(`${baseUrl}/admin/api/bench/accuracy/results`)).json()) as {
        results: unknown[];
      };
      expect(accuracy.results).toHaveLength(onDisk.results.accuracy);
      expect((await fetch(`${baseUrl}/admin/api/models/tiny-a`)).status).toBe(200);
    });
  });

  it("moves a corrupt file aside as <name>.corrupt-<timestamp>, reports it in /admin/api/health and keeps working", async () => {
    const basePath = tempBase();
    const write = (relative: string, bytes: string | Buffer) => {
      fs.mkdirSync(path.dirname(path.join(basePath, relative)), { recursive: true });
      fs.writeFileSync(path.join(basePath, relative), bytes);
    };
    const whole = JSON.stringify(samplePerformanceResult("perf-torn", "m"));
    // settings.json is not among them: it holds the API key, so it refuses to start instead
    // (settingsFailClosed.test.ts).
    const corrupt: Record<string, string | Buffer> = {
      "model_settings.json": '{"version":1,"models":{"a":{"max_queue":-5}}}',
      "model_profiles.json": Buffer.from([0xff, 0x00, 0x7b, 0x22]),
      "model_catalog.json": "",
      "benchmarks/performance/results/perf-torn.json": whole.slice(0, whole.length / 2),
      "benchmarks/accuracy/results/acc-other.json": JSON.stringify(sampleAccuracyResult("acc-else", "m", 2)),
    };
    for (const [relative, bytes] of Object.entries(corrupt)) write(relative, bytes);
    write(
      "benchmarks/performance/results/perf-fine.json",
      JSON.stringify(samplePerformanceResult("perf-fine", "m")),
    );

    const core = await createCore({ basePath, port: 0, logLevel: "fatal" });
    const { app, url } = await startServer(core);
    try {
      const get = async (route: string) => {
        const response = await fetch(`${url}${route}`);
        expect(response.status, route).toBe(200);
        return response.json();
      };
      // The settings stores read their files at start: health reports them before any use.
      const early = (await get("/admin/api/health")) as HealthResponse;
      for (const relative of ["model_settings.json", "model_profiles.json"]) {
        const original = path.join(basePath, relative);
        expect(
          early.warnings.some((warning) => warning.path?.startsWith(`${original}.corrupt-`)),
          relative,
        ).toBe(true);
      }
      // The other stores read theirs on first use.
      await get("/admin/api/settings");
      await get("/admin/api/models");
      await get("/admin/api/templates");
      const performance = (await get("/admin/api/bench/results")) as { results: { result_id: string }[] };
      expect(performance.results.map((result) => result.result_id)).toEqual(["perf-fine"]);
      await get("/admin/api/bench/accuracy/results");

      const health = (await get("/admin/api/health")) as HealthResponse;
      expect(health.status).toBe("degraded");
      const moved = health.warnings.filter((warning) => warning.code === "corrupt_file");
      for (const [relative, bytes] of Object.entries(corrupt)) {
        const original = path.join(basePath, relative);
        const warning = moved.find((candidate) => candidate.path?.startsWith(`${original}.corrupt-`));
        expect(warning, relative).toBeDefined();
        expect(path.basename(warning!.path!)).toMatch(
          new RegExp(`^${path.basename(relative).replace(".", "\\.")}\\.corrupt-\\d{4}-\\d{2}-\\d{2}T`),
        );
        // Kept byte for byte for the user; never silently emptied in place.
        expect(fs.readFileSync(warning!.path!)).toEqual(Buffer.from(bytes));
      }
      expect(moved).toHaveLength(Object.keys(corrupt).length);

      // The app keeps working and writes fresh, valid files.
      const put = await fetch(`${url}/admin/api/settings`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ default_ttl_seconds: 60 }),
      });
      expect(put.status).toBe(200);
      const template = await fetch(`${url}/admin/api/templates/fresh`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ settings: { max_queue: 3 } }),
      });
      expect(template.status).toBe(200);
      expect((await fetch(`${url}/v1/models`)).status).toBe(200);
      const check = checkBaseFolder(basePath);
      expect(check.problems.filter((problem) => !problem.includes(".corrupt-"))).toEqual([]);
      expect(
        JSON.parse(fs.readFileSync(path.join(basePath, "settings.json"), "utf8")).default_ttl_seconds,
      ).toBe(60);
    } finally {
      await app.close();
      await core.close();
    }
  });
});
