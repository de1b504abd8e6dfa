import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeHub, type FakeHub } from "../tests/helpers/fakeHub.js";
import { freePort } from "./freePort.js";
import { launchChromium } from "./launchChromium.js";
import { PerchServerProcess } from "./PerchServerProcess.js";
import { seedHumanEvalCache } from "./seedHumanEvalCache.js";

/*
 * The dashboard end to end: a real `perch serve` (it generates the random-weight test model in an
 * empty models folder), Debian's chromium, every step through the UI as a user would take it.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const screenshots = path.join(repoRoot, "docs/screenshots");

let server: PerchServerProcess;
let browser: Browser;
let page: Page;
let basePath: string;
let hub: FakeHub;
let hubRepos: string;
/** The generated test model's id (rows are sorted by id, so it is looked up, not assumed first). */
let localId = "";

const row = () =>
  localId
    ? page.locator(`[data-testid="model-row"][data-model-id="${localId}"]`)
    : page.getByTestId("model-row").first();
const rowOf = (source: "HF" | "MS") =>
  page
    .getByTestId("model-row")
    .filter({ has: page.getByTestId("source-badge").getByText(source, { exact: true }) });

async function openPage(name: "models" | "benchmarks" | "server" | "settings"): Promise<void> {
  await page.getByTestId(`nav-${name}`).click();
  await page.getByTestId(`${name}-page`).waitFor();
}

async function shoot(name: string): Promise<void> {
  await page.waitForTimeout(300); // let charts finish their first layout
  await page.screenshot({ path: path.join(screenshots, name), fullPage: true });
}

describe("dashboard", () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(repoRoot, "dist/renderer/index.html"))) {
      throw new Error("dist/renderer is missing: run `npm run build:renderer` (npm run test:e2e does).");
    }
    fs.mkdirSync(screenshots, { recursive: true });
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-e2e-"));
    seedHumanEvalCache(basePath);
    // Hugging Face and ModelScope cannot be reached here: a local server speaks both APIs.
    hub = await startFakeHub();
    hubRepos = fs.mkdtempSync(path.join(os.tmpdir(), "perch-e2e-hub-"));
    server = new PerchServerProcess({
      port: await freePort(),
      basePath,
      env: { HF_ENDPOINT: hub.url, MODELSCOPE_ENDPOINT: hub.url },
    });
    await server.start();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 880 }, locale: "en-US" });
    page.setDefaultTimeout(15_000);
    page.on("pageerror", (error) => process.stderr.write(`[page error] ${error.message}\n`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await hub?.close();
    if (basePath) fs.rmSync(basePath, { recursive: true, force: true });
    if (hubRepos) fs.rmSync(hubRepos, { recursive: true, force: true });
  });

  it("lists the generated test model with its source badge", async () => {
    await page.goto(`${server.url}/#/models`);
    await page.getByTestId("models-page").waitFor();
    await expect.poll(() => page.getByTestId("model-row").count(), { timeout: 20_000 }).toBeGreaterThan(0);
    localId = (await row().getAttribute("data-model-id")) ?? "";
    await expect.poll(() => row().getByTestId("source-badge").textContent()).toBe("Local");
    // Local models have no remote update status and no repository link.
    expect(await row().getByTestId("update-status").count()).toBe(0);
    expect(await row().getByTestId("repo-link").count()).toBe(0);
    for (const label of ["Reload runtime", "Rescan disk", "Check remote updates"]) {
      expect(await page.getByRole("button", { name: label, exact: true }).count()).toBe(1);
    }
  });

  it("loads and unloads a model from its row, the row's state following", async () => {
    expect(await row().getByTestId("load-state").getAttribute("data-state")).toBe("unloaded");
    expect(await row().getByTestId("action-unload").count()).toBe(0);
    // From the keyboard: Load is unavailable while it loads, and the focus stays on it (a disabled
    // button dropped it to the page), to become Unload.
    await row().getByTestId("action-load").focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => row().getByTestId("load-state").getAttribute("data-state"), { timeout: 60_000 })
      .toBe("loaded");
    expect(await row().getByTestId("action-unload").textContent()).toBe("Unload");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "action-unload",
    );
    // Rescan disk likewise keeps the focus through its work.
    await page.getByTestId("rescan-disk").focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByTestId("rescan-disk").getAttribute("aria-disabled")).toBe(null);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "rescan-disk",
    );
    expect(await row().getByTestId("action-load").count()).toBe(0);
    // The Server page lists it as loaded too (the load refreshed both).
    await openPage("server");
    await expect.poll(() => page.getByTestId("loaded-model-row").count()).toBe(1);
    await openPage("models");
    await row().getByTestId("action-unload").click();
    await expect
      .poll(() => row().getByTestId("load-state").getAttribute("data-state"), { timeout: 30_000 })
      .toBe("unloaded");
    expect(await row().getByTestId("action-load").isEnabled()).toBe(true);
  });

  it("edits tags and the chat format in the settings modal (tag suggestions are offered, not applied)", async () => {
    await row().getByTestId("action-settings").click();
    const modal = page.getByTestId("settings-modal");
    await modal.waitFor();
    expect(await modal.getByTestId("editor-tag").count()).toBe(0);
    // An empty field says what "Default" stands for.
    expect(await modal.getByTestId("settings-temperature").getAttribute("placeholder")).toBe("Default: 0.8");
    expect(await modal.getByTestId("settings-max_concurrent_requests").getAttribute("placeholder")).toBe(
      "Default: 8",
    );
    expect(await modal.getByTestId("suggest-tag-Dense").count()).toBe(1);
    expect(await modal.getByTestId("suggest-tag-MoE").count()).toBe(1);
    await modal.getByTestId("suggest-tag-Dense").click();
    await modal.getByTestId("tag-input").fill("e2e-coder");
    await modal.getByTestId("tag-input").press("Enter");
    // A value the server rejects shows inline, on its field.
    await modal.getByTestId("settings-temperature").fill("7");
    await modal.getByTestId("settings-save").click();
    await modal.getByTestId("settings-error").waitFor();
    expect(await modal.locator(".field-invalid").count()).toBeGreaterThan(0);
    await modal.getByTestId("settings-temperature").fill("");
    // The chat format is a choice among node-llama-cpp's formats (ChatML is this model's own).
    await modal.getByTestId("settings-chat_format").selectOption("chatML");
    await modal.getByTestId("settings-save").click();
    await modal.waitFor({ state: "detached" });
    await expect.poll(() => row().getByTestId("tag-chip").allTextContents()).toEqual(["Dense", "e2e-coder"]);
    const listing = (await (await fetch(`${server.url}/admin/api/models`)).json()) as {
      models: { id: string; settings: { chat_format?: string } }[];
    };
    expect(listing.models.find((model) => model.id === localId)?.settings.chat_format).toBe("chatML");
  });

  it("holds the keyboard in a dialog: focus goes in, Tab cycles inside, Escape gives it back", async () => {
    const opener = row().getByTestId("action-settings");
    await opener.focus();
    await page.keyboard.press("Enter");
    const modal = page.getByTestId("settings-modal");
    await modal.waitFor();
    const focusInModal = () => page.evaluate(() => Boolean(document.activeElement?.closest("[role=dialog]")));
    expect(await focusInModal()).toBe(true);
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press(step % 3 === 0 ? "Shift+Tab" : "Tab");
      expect(await focusInModal(), `after ${step + 1} presses`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await modal.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "action-settings",
    );
  });

  it("asks before Escape throws away an edited setting, and keeps the edit when told to", async () => {
    await row().getByTestId("action-settings").click();
    const modal = page.getByTestId("settings-modal");
    const alias = modal.getByTestId("settings-alias");
    const before = await alias.inputValue();
    await alias.fill("not saved yet");
    await page.keyboard.press("Escape");
    const confirm = page.getByTestId("confirm-dialog");
    await confirm.waitFor();
    // Escape in the question answers the question only: the settings and the edit stay.
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    expect(await alias.inputValue()).toBe("not saved yet");
    await page.keyboard.press("Escape");
    await confirm.getByTestId("confirm-ok").click();
    await modal.waitFor({ state: "detached" });
    await row().getByTestId("action-settings").click();
    expect(await page.getByTestId("settings-alias").inputValue()).toBe(before);
    // Unedited, Escape closes at once.
    await page.keyboard.press("Escape");
    await page.getByTestId("settings-modal").waitFor({ state: "detached" });
  });

  it("keeps the tags across a page reload", async () => {
    await page.reload();
    await expect
      .poll(() => row().getByTestId("tag-chip").allTextContents(), { timeout: 15_000 })
      .toEqual(["Dense", "e2e-coder"]);
  });

  it("leaves the community upload unchecked and previews exactly what would be sent", async () => {
    await openPage("benchmarks");
    const checkbox = page.getByTestId("upload-checkbox");
    expect(await checkbox.isChecked()).toBe(false);
    await page.getByTestId("upload-preview").locator("summary").click();
    const fields = page.getByTestId("upload-preview-field");
    await expect.poll(() => fields.count(), { timeout: 15_000 }).toBeGreaterThan(5);
    const names = await fields.locator("th").allTextContents();
    for (const expected of [
      "owner_hash",
      "app_version",
      "hardware.chip",
      "model.file_sha256",
      "model.quantization",
    ]) {
      expect(
        names.some((name) => name.includes(expected)),
        `${expected} in ${names.join(", ")}`,
      ).toBe(true);
    }
    expect(names.join(" ")).not.toMatch(/path|user|prompt/i);
    // No endpoint is configured in a fresh install: the reason it would be skipped is shown.
    expect(await page.getByTestId("upload-skip-reason").textContent()).toContain("skipped");
  });

  it("runs a short performance benchmark started from the UI", async () => {
    const lengths = page.getByTestId("performance-prompt-lengths");
    await lengths.locator('input[data-value="1024"]').uncheck();
    await lengths.locator('input[data-value="128"]').check();
    await page.getByTestId("performance-batch-sizes").locator('input[data-value="4"]').uncheck();
    await page.getByTestId("start-performance-run").click();
    const run = page.locator('[data-testid="run-progress"][data-run-kind="performance"]');
    await run.waitFor();
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: 180_000, interval: 500 })
      .toMatch(/completed|failed|cancelled/);
    expect(await run.getAttribute("data-status"), server.log()).toBe("completed");
    // A finished run shows its numbers and a link to the result, not a bare "Completed".
    // One rule picks the test whose speeds stand for the run (nearest 1024 prompt tokens: 512 of
    // 128 + 512), and every place that shows them names its prompt length.
    const headline = (await run.getByTestId("run-headline").textContent()) ?? "";
    expect(headline).toMatch(/^At 512 prompt tokens: prompt [\d,.]+ tok\/s · generation [\d,.]+ tok\/s/);
    expect(await run.getByTestId("run-result-link").count()).toBe(1);
    await expect.poll(() => page.getByTestId("performance-history-row").count(), { timeout: 15_000 }).toBe(1);
    const history = page.getByTestId("performance-history-row");
    expect(await history.getByTestId("headline-prompt").textContent()).toBe("512 tok");
    const speeds = await history.locator("td.num.strong").allTextContents();
    const [, pp, tg] = /prompt ([\d,.]+) tok\/s · generation ([\d,.]+) tok\/s/.exec(headline) ?? [];
    expect(speeds).toEqual([pp, tg]);
  });

  it("runs a short accuracy benchmark started from the UI, with live progress", async () => {
    // Fields are named for assistive technology; the batch size is a radio group the arrows move in.
    await page.getByLabel("Sample size").fill("4");
    const batchSizes = page.getByRole("radiogroup", { name: "Batch size" });
    await batchSizes.getByRole("radio", { name: "4", exact: true }).click();
    await page.keyboard.press("ArrowLeft");
    const two = batchSizes.getByRole("radio", { name: "2", exact: true });
    expect(await two.getAttribute("aria-checked")).toBe("true");
    expect(await two.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.getByTestId("start-accuracy-run").click();
    const run = page.locator('[data-testid="run-progress"][data-run-kind="accuracy"]');
    await run.waitFor();
    // Caught mid-run (after the first answers, before the last) for the screenshot.
    const progress = async () => {
      const status = await run.getAttribute("data-status");
      // A finished run shows its outcome instead of the count.
      return status === "running" ? `${status} ${await run.getByTestId("run-count").textContent()}` : status;
    };
    await expect
      .poll(progress, { timeout: 120_000, interval: 100 })
      .toMatch(/^running [1-3] of 4$|^completed|^failed|^cancelled/);
    if ((await run.getAttribute("data-status")) === "running") {
      await page.getByTestId("upload-preview").locator("summary").click(); // fold the preview away
      await page.screenshot({ path: path.join(screenshots, "benchmark-running.png") });
    }
    await expect
      .poll(() => run.getAttribute("data-status"), { timeout: 300_000, interval: 500 })
      .toMatch(/completed|failed|cancelled/);
    expect(await run.getAttribute("data-status"), server.log()).toBe("completed");
    expect(await run.getByTestId("run-headline").textContent()).toMatch(/% correct \(\d of 4\)/);
    await expect.poll(() => page.getByTestId("accuracy-history-row").count(), { timeout: 15_000 }).toBe(1);
  });

  it("shows the history with charts and a per-question drill-down", async () => {
    await page.reload();
    await page.getByTestId("accuracy-history-row").first().waitFor();
    await page.getByTestId("chart-speed-by-prompt").locator("svg").first().waitFor();
    await shoot("history-charts.png");
    await page.getByTestId("open-drilldown").first().click();
    const drilldown = page.getByTestId("drilldown-modal");
    await drilldown.waitFor();
    expect(await drilldown.getByTestId("question-row").count()).toBe(4);
    await drilldown.getByTestId("question-row").first().click();
    // The expanded row shows what is needed to audit the score: the prompt, the raw response,
    // what was extracted, the repair, and the test output when there is one.
    const details = drilldown.getByTestId("question-details");
    await details.getByTestId("raw-response").waitFor();
    expect(await details.locator(".prompt-message").count()).toBeGreaterThan(0);
    expect(await details.textContent()).toContain("def ");
    expect(await details.getByTestId("repair").textContent()).toMatch(
      /Passed with|No candidate or repair passed/,
    );
    const first = (
      await page.evaluate(() =>
        fetch("/admin/api/bench/accuracy/results").then((response) => response.json()),
      )
    ).results[0].questions[0] as {
      error: string | null;
      test_output?: string | null;
      attempts?: { pass_mode: string }[];
    };
    // The whole output of the failing check (traceback included) when the scorer kept it.
    const shown = first.test_output ?? first.error;
    if (shown) expect(await details.getByTestId("test-output").textContent()).toBe(shown);
    expect(await details.getByTestId("attempts").locator("li").count()).toBe(first.attempts?.length ?? 0);
    // The failure chips filter the questions by failure type.
    const chip = drilldown.getByTestId("failure-filter").first();
    if ((await chip.count()) > 0) {
      const count = Number(/× (\d+)/.exec((await chip.textContent()) ?? "")?.[1]);
      await chip.click();
      expect(await drilldown.getByTestId("question-row").count()).toBe(count);
      await chip.click();
      expect(await drilldown.getByTestId("question-row").count()).toBe(4);
    }
    // From the keyboard: a question row takes focus and opens with Enter.
    const second = drilldown.getByTestId("question-row").nth(1);
    await second.focus();
    await page.keyboard.press("Enter");
    expect(await second.getAttribute("aria-expanded")).toBe("true");
    await details.getByTestId("raw-response").waitFor();
    await page.keyboard.press("Escape");
    await drilldown.waitFor({ state: "detached" });
  });

  it("downloads models from Hugging Face and ModelScope with progress, and checks them for updates", async () => {
    // Two hub repos holding a copy of the generated model (a GGUF the engine can load).
    const generated = fs.readdirSync(path.join(basePath, "models")).find((name) => name.endsWith(".gguf"));
    for (const [dir, file] of [
      ["hf", "tiny-chat-Q8_0.gguf"],
      ["ms", "tiny-chat-ms-Q8_0.gguf"],
    ]) {
      fs.mkdirSync(path.join(hubRepos, dir), { recursive: true });
      fs.copyFileSync(path.join(basePath, "models", generated ?? ""), path.join(hubRepos, dir, file));
    }
    hub.addRepo({ id: "perch-e2e/tiny-chat-GGUF", dir: path.join(hubRepos, "hf") });
    hub.addRepo({ id: "perch-e2e/tiny-chat-ms-GGUF", dir: path.join(hubRepos, "ms") });
    hub.setChunkDelay(40);

    await openPage("models");
    await page.getByTestId("open-download").click();
    const panel = page.getByTestId("download-panel");
    for (const [source, repo, badge] of [
      ["hf", "perch-e2e/tiny-chat-GGUF", "HF"],
      ["modelscope", "perch-e2e/tiny-chat-ms-GGUF", "MS"],
    ] as const) {
      await panel.getByTestId("download-source").selectOption(source);
      await panel.getByTestId("download-repo").fill(repo);
      await panel.getByRole("button", { name: "List files" }).click();
      await panel.getByRole("button", { name: "Download", exact: true }).click();
      const item = panel
        .getByTestId("download-item")
        .filter({ hasText: repo.split("/")[1] })
        .first();
      await expect.poll(() => item.textContent(), { timeout: 60_000, interval: 200 }).toContain("Done");
      await expect.poll(() => rowOf(badge).count(), { timeout: 15_000 }).toBe(1);
    }
    await panel.getByRole("button", { name: "Close" }).click();
    const hfRow = rowOf("HF");
    expect(await hfRow.getByTestId("repo-link").getAttribute("href")).toBe(
      "https://huggingface.co/perch-e2e/tiny-chat-GGUF",
    );
    expect(await rowOf("MS").getByTestId("repo-link").getAttribute("href")).toBe(
      "https://www.modelscope.cn/models/perch-e2e/tiny-chat-ms-GGUF",
    );
    // A new commit changing the HF file: "Check remote updates" finds it; the ModelScope copy is current.
    const next = path.join(hubRepos, "hf-next");
    fs.mkdirSync(next);
    const file = path.join(next, "tiny-chat-Q8_0.gguf");
    fs.copyFileSync(path.join(hubRepos, "hf", "tiny-chat-Q8_0.gguf"), file);
    fs.appendFileSync(file, Buffer.alloc(32));
    hub.pushRevision("perch-e2e/tiny-chat-GGUF", next);
    await page.getByTestId("check-remote-updates").click();
    await expect
      .poll(() => hfRow.getByTestId("update-status").textContent(), { timeout: 15_000 })
      .toBe("Update available");
    expect(await rowOf("MS").getByTestId("update-status").textContent()).toBe("Up to date");
    expect(await row().getByTestId("update-status").count()).toBe(0);
  });

  it("shows speeds and an accuracy chip on the model row", async () => {
    await openPage("models");
    await expect
      .poll(() => row().getByTestId("speed-pp").textContent(), { timeout: 15_000 })
      .toMatch(/^↓ [\d.,]+ tok\/s$/);
    expect(await row().getByTestId("speed-tg").textContent()).toMatch(/^↑ [\d.,]+ tok\/s$/);
    expect(await row().getByTestId("speed-at").textContent()).toBe("at 512 prompt tokens");
    await expect
      .poll(() => row().getByTestId("accuracy-chip").allTextContents())
      .toEqual([expect.stringMatching(/^HE \d+\.\d%$/)]);
    expect(await row().getByTestId("accuracy-chip").getAttribute("title")).toMatch(/4 questions/);
    await shoot("models.png");
    // The chip links straight to the questions the model got wrong.
    await row().getByTestId("accuracy-chip").click();
    const drilldown = page.getByTestId("drilldown-modal");
    await drilldown.waitFor();
    const correct = Number(
      /^HE (\d+)/.exec((await row().getByTestId("accuracy-chip").textContent()) ?? "")?.[1],
    );
    if (correct < 100) {
      expect(await drilldown.getByTestId("failed-only").isChecked()).toBe(true);
      const failed = await drilldown.getByTestId("question-row").count();
      expect(failed).toBeGreaterThan(0);
      expect(await drilldown.locator("td.pass").count()).toBe(0);
    }
    await page.keyboard.press("Escape");
    await drilldown.waitFor({ state: "detached" });
  });

  it("deleting a history entry removes it and updates the row's chips", async () => {
    await openPage("benchmarks");
    await page.getByTestId("accuracy-history").getByTestId("delete-result").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => page.getByTestId("accuracy-history-row").count(), { timeout: 15_000 }).toBe(0);
    await openPage("models");
    await expect.poll(() => row().getByTestId("accuracy-chip").count(), { timeout: 15_000 }).toBe(0);
    expect(await row().getByTestId("speed-tg").count()).toBe(1);
  });

  it("switches the language", async () => {
    expect(await page.getByTestId("nav-models").textContent()).toContain("Models");
    await page.getByTestId("locale-switcher").selectOption("de");
    await expect.poll(() => page.getByTestId("nav-models").textContent()).toContain("Modelle");
    expect(await page.getByTestId("reload-runtime").textContent()).toBe("Laufzeit neu laden");
    await page.getByTestId("locale-switcher").selectOption("ja");
    await expect.poll(() => page.getByTestId("nav-models").textContent()).toContain("モデル");
    await page.getByTestId("locale-switcher").selectOption("en");
    await expect.poll(() => page.getByTestId("nav-models").textContent()).toContain("Models");
  });

  it("keeps the tags across a server restart", async () => {
    await server.restart();
    await page.reload();
    await expect
      .poll(() => row().getByTestId("tag-chip").allTextContents(), { timeout: 30_000 })
      .toEqual(["Dense", "e2e-coder"]);
    await openPage("benchmarks");
    await expect.poll(() => page.getByTestId("performance-history-row").count(), { timeout: 15_000 }).toBe(1);
  });
});
