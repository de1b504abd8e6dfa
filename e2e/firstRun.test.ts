import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { starterModels } from "../src-shared/catalog/starterModels.js";
import { startFakeHub, type FakeHub } from "../tests/helpers/fakeHub.js";
import { ensureTestModels } from "../tests/helpers/testModels.js";
import { freePort } from "./freePort.js";
import { launchChromium } from "./launchChromium.js";
import { PerchServerProcess } from "./PerchServerProcess.js";

/*
 * First run as the app has it: no model anywhere (no random-weight starter model, an empty home so
 * no LM Studio or Hugging Face cache is found). The onboarding card downloads a curated starter
 * model through the download manager, from a local server speaking the Hub's API.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const screenshots = path.join(repoRoot, "docs/screenshots");

let server: PerchServerProcess;
let browser: Browser;
let page: Page;
let hub: FakeHub;
const temp: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  temp.push(dir);
  return dir;
};

describe("first run", () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(repoRoot, "dist/renderer/index.html"))) {
      throw new Error("dist/renderer is missing: run `npm run build:renderer` (npm run test:e2e does).");
    }
    const starter = starterModels[0];
    const repoDir = tempDir("perch-e2e-starter-repo-");
    const model = (await ensureTestModels()).main;
    fs.copyFileSync(model, path.join(repoDir, `${starter.repo.split("/")[1]}-${starter.quant}.gguf`));
    hub = await startFakeHub();
    hub.addRepo({ id: starter.repo, dir: repoDir });
    server = new PerchServerProcess({
      port: await freePort(),
      basePath: tempDir("perch-e2e-first-run-"),
      env: { HF_ENDPOINT: hub.url, HOME: tempDir("perch-e2e-home-") },
      extraArgs: ["--no-starter-model"],
    });
    await server.start();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 880 }, locale: "en-US" });
    page.setDefaultTimeout(15_000);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await hub?.close();
    for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("offers small instruct models with size and licence, and downloads one through the download manager", async () => {
    await page.goto(`${server.url}/#/models`);
    const card = page.getByTestId("first-run");
    await card.waitFor();
    expect(await card.locator("li").count()).toBe(starterModels.length);
    expect(await card.textContent()).toContain(starterModels[0].licence);
    fs.mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: path.join(screenshots, "first-run.png"), fullPage: true });

    await card.getByRole("button", { name: "Download" }).first().click();
    await expect
      .poll(() => page.getByTestId("model-row").count(), { timeout: 60_000, interval: 250 })
      .toBe(1);
    await expect.poll(() => page.getByTestId("first-run").count()).toBe(0);
  });
});
