import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accuracyResultSchema, type QuestionResult } from "../src-shared/contracts/accuracy.js";
import { perchPaths } from "../src-main/base/perchPaths.js";
import { mbppBenchmark } from "../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import { toMbppItem } from "../src-main/evals/benchmarks/mbpp/MbppItem.js";
import { InlineSandbox } from "../src-main/evals/scoring/InlineSandbox.js";
import { splitResponse } from "../src-main/evals/runner/splitResponse.js";
import { ensureTestModels } from "../tests/helpers/testModels.js";
import { freePort } from "./freePort.js";
import { launchChromium } from "./launchChromium.js";
import { PerchServerProcess } from "./PerchServerProcess.js";

/*
 * A result a user can audit: questions scored by the real MBPP scorer in the real sandbox (one
 * failing with a traceback, one passing after a repair) are saved, and the drill-down shows every
 * repair tried and the failing check's whole traceback.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const screenshots = path.join(repoRoot, "docs/screenshots");

let server: PerchServerProcess;
let browser: Browser;
let basePath: string;
let failing: QuestionResult;

describe("auditing a result's questions", () => {
  beforeAll(async () => {
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-e2e-drilldown-"));
    const models = await ensureTestModels();
    fs.mkdirSync(path.join(basePath, "models"), { recursive: true });
    fs.symlinkSync(models.main, path.join(basePath, "models", path.basename(models.main)));
    const item = toMbppItem({
      task_id: 9201,
      text: "Write a function to find the area of a circle.",
      code: "import math\ndef circle_area(r):\n    return math.pi * r * r",
      test_list: ["assert circle_area(2) == 12.566370614359172", "assert circle_area(0) == 0"],
      test_setup_code: "",
    });
    const sandbox = await InlineSandbox.create({ processes: 1 });
    try {
      const fenced = (code: string) => splitResponse(`Here you go:\n\n\`\`\`python\n${code}\n\`\`\``);
      failing = await mbppBenchmark.score(item, fenced("def circle_area(r):\n    return pi * r * r"), {
        sandbox,
      });
      const passing = await mbppBenchmark.score(
        item,
        fenced("def circle_area(r):\n    return 3.14159265358979 * r * r"),
        { sandbox },
      );
      const result = accuracyResultSchema.parse({
        result_id: "acc-e2e-audit",
        created_at: new Date().toISOString(),
        model_id: path.basename(models.main, ".gguf"),
        benchmark: "mbpp",
        variant: "full",
        accuracy: 0.5,
        total: 2,
        batch_size: 1,
        sampling_profile: "deterministic",
        effective_sampling: { temperature: 0 },
        thinking: false,
        status: "completed",
        questions: [failing, { ...passing, id: "9202" }],
        timings: { total_s: 1, generation_s: 1, scoring_s: 0.1 },
      });
      const dir = perchPaths(basePath).accuracyResults;
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${result.result_id}.json`), JSON.stringify(result));
    } finally {
      await sandbox.close();
    }
    server = new PerchServerProcess({ port: await freePort(), basePath });
    await server.start();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (basePath) fs.rmSync(basePath, { recursive: true, force: true });
  });

  it("expands a failed question to every repair tried and the failing check's traceback", async () => {
    expect(failing.attempts!.length).toBeGreaterThan(1);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    try {
      await page.goto(`${server.url}/#/benchmarks`);
      await page.getByTestId("accuracy-history-row").first().waitFor();
      await page.getByTestId("open-drilldown").first().click();
      const drilldown = page.getByTestId("drilldown-modal");
      await drilldown.waitFor();
      // The column headers are words in the page's language, not the result's raw keys.
      const headers = await drilldown.locator("thead th").allTextContents();
      expect(headers).toEqual(expect.arrayContaining(["Passed with", "Failure type"]));
      expect(headers.join(" ")).not.toMatch(/pass_mode|failure_type/i);
      await drilldown.getByTestId("question-row").filter({ hasText: "9201" }).click();
      const details = drilldown.getByTestId("question-details");
      const attempts = details.getByTestId("attempts").locator("li");
      expect(await attempts.count()).toBe(failing.attempts!.length);
      expect(await attempts.first().textContent()).toContain(failing.attempts![0].pass_mode);
      expect(await attempts.first().textContent()).toContain("runtime_error");
      // Each attempt folds out to its own output.
      await attempts.first().locator("summary").click();
      expect(await attempts.first().locator("pre").textContent()).toContain("NameError");
      const output = await details.getByTestId("test-output").textContent();
      expect(output).toContain("Traceback (most recent call last)");
      expect(output).toContain("NameError: name 'pi' is not defined");
      await details.getByTestId("test-output").scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(screenshots, "drilldown.png") });
    } finally {
      await page.close();
    }
  });
});
