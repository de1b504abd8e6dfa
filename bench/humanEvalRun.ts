import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { evalRunAddRequestSchema } from "../src-shared/contracts/evalQueue.js";
import { createCore } from "../src-main/core/createCore.js";
import { seedHumanEvalCache } from "../e2e/seedHumanEvalCache.js";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";

/**
 * A short real HumanEval run on the generated test model through the whole stack (queue, runner,
 * scheduler, sandbox pool, result store). The test model writes no working code, so accuracy is
 * 0 by design: the figures are the wall time, generation vs scoring time and failure types.
 */
export const humanEvalRunSection: BenchSection = {
  name: "humaneval",
  run: async () => {
    const models = await benchModels();
    const basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-bench-he-"));
    fs.mkdirSync(path.join(basePath, "models"));
    fs.symlinkSync(models.main, path.join(basePath, "models", path.basename(models.main)));
    seedHumanEvalCache(basePath);
    const core = await createCore({ basePath, logLevel: "warn" });
    const modelId = path.basename(models.main).replace(/\.gguf$/, "");
    try {
      const rows = [];
      for (const batchSize of [1, 4] as const) {
        const started = performance.now();
        await core.evals.add(
          evalRunAddRequestSchema.parse({
            model_id: modelId,
            benchmarks: ["humaneval"],
            sample_size: 24,
            batch_size: batchSize,
          }),
        );
        await core.evals.idle();
        const wall = (performance.now() - started) / 1000;
        const latest = (await core.accuracyResults.list()).sort((a, b) =>
          b.created_at.localeCompare(a.created_at),
        )[0];
        const full = latest as unknown as {
          questions: { failure_type: string | null }[];
          timings?: { generation_s?: number; scoring_s?: number };
          status?: string;
        };
        const failures: Record<string, number> = {};
        for (const question of full.questions ?? []) {
          const key = question.failure_type ?? "passed";
          failures[key] = (failures[key] ?? 0) + 1;
        }
        rows.push({
          batch_size: batchSize,
          questions: latest.total,
          accuracy: latest.accuracy,
          status: full.status ?? "unknown",
          wall_s: wall,
          generation_s: full.timings?.generation_s ?? 0,
          scoring_s: full.timings?.scoring_s ?? 0,
          failure_types: Object.entries(failures)
            .map(([type, count]) => `${type}:${count}`)
            .join(" "),
        });
      }
      return {
        json: { model: modelId, rows },
        table: [{ title: "HumanEval (24 questions) on the random-weight test model", rows }],
      };
    } finally {
      await core.close();
      fs.rmSync(basePath, { recursive: true, force: true });
    }
  },
};
