import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModels } from "../tests/helpers/testModels.js";
import { accuracyResult } from "../tests/unit/renderer/fixtures.js";
import { freePort } from "./freePort.js";
import { launchChromium } from "./launchChromium.js";
import { PerchServerProcess } from "./PerchServerProcess.js";
import { overlappingBoxes, verticallyClippedElements } from "./verticalLayout.js";

/*
 * The layout holds at the window's minimum (900×560) and at 1280×800, in light and dark: no
 * control is cut off sideways or vertically (checked by element bounds), wide tables scroll inside
 * their card, and the chat's options never cover its messages.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const screenshots = path.join(repoRoot, "docs/screenshots");
const pages = ["models", "chat", "benchmarks", "server", "settings"] as const;
const sizes = [
  { width: 900, height: 560 },
  { width: 1280, height: 800 },
] as const;

let server: PerchServerProcess;
let browser: Browser;
let basePath: string;

/** Controls whose box leaves the window (or the scrolling box they live in). */
async function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const clipped: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1)
      clipped.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    const controls = document.querySelectorAll<HTMLElement>(
      "main button, main select, main input, main textarea, main a, [role=dialog] button, [role=dialog] select, [role=dialog] input, [role=dialog] textarea",
    );
    for (const control of Array.from(controls)) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Inside a sideways-scrolling box (a wide table), the box itself must fit; the control may scroll.
      let frame = { left: 0, right: width };
      for (let parent = control.parentElement; parent; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") {
          const parentBox = parent.getBoundingClientRect();
          if (overflow !== "hidden") {
            frame = { left: -Infinity, right: Infinity };
            break;
          }
          frame = {
            left: Math.max(frame.left, parentBox.left),
            right: Math.min(frame.right, parentBox.right),
          };
        }
      }
      if (box.left < frame.left - 1 || box.right > frame.right + 1) {
        const name =
          control.getAttribute("data-testid") ?? control.textContent?.trim().slice(0, 30) ?? control.tagName;
        clipped.push(
          `${control.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)}–${Math.round(box.right)} of ${width}`,
        );
      }
    }
    return clipped;
  });
}

/**
 * Text whose contrast with what it is read against is below WCAG AA (4.5:1; 3:1 when large):
 * colours fixed for the light theme read badly on the dark theme (white on the dark theme's light
 * blue was 2.8:1, the models table's speeds 1.9:1, chart legends 2.65:1). Disabled controls and chart graphics (SVG) are exempt.
 */
async function lowContrastText(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const parse = (color: string) => {
      const [r, g, b, a = 1] = (color.match(/[\d.]+/g) ?? []).map(Number);
      return { r: r ?? 0, g: g ?? 0, b: b ?? 0, a };
    };
    const luminance = ({ r, g, b }: { r: number; g: number; b: number }) => {
      const channel = (value: number) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const low: string[] = [];
    // The colour a text is read against: its own fill, else the nearest opaque one behind it.
    const backdrop = (element: HTMLElement) => {
      for (let node: HTMLElement | null = element; node; node = node.parentElement) {
        const fill = parse(getComputedStyle(node).backgroundColor);
        if (fill.a >= 1) return fill;
      }
      return parse(getComputedStyle(document.body).backgroundColor);
    };
    for (const element of Array.from(document.querySelectorAll<HTMLElement>("body *"))) {
      const style = getComputedStyle(element);
      if (style.visibility === "hidden" || style.filter !== "none") continue;
      if (element.closest(":disabled, [aria-disabled=true], svg")) continue;
      if (Number(style.opacity) < 1 || parse(style.color).a < 1) continue;
      const ownText = Array.from(element.childNodes).some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim().length > 0,
      );
      if (!ownText || element.getBoundingClientRect().width === 0) continue;
      const own = parse(style.backgroundColor);
      const background = own.a >= 1 ? own : own.a === 0 ? backdrop(element) : null;
      if (!background) continue; // a translucent fill: its colour depends on what is under it
      const [light, dark] = [luminance(parse(style.color)), luminance(background)].sort((a, b) => b - a);
      const ratio = (light! + 0.05) / (dark! + 0.05);
      // WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        low.push(
          `"${element.textContent!.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1 (${element.className})`,
        );
    }
    return low;
  });
}

/**
 * Row actions a user cannot reach: a model row with neither its Delete button nor its actions menu
 * showing, a history row without its Delete button (a narrow-window rule once hid them all).
 */
async function unreachableRowActions(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = (element: Element | null) =>
      element !== null && (element as HTMLElement).getBoundingClientRect().width > 0;
    const missing: string[] = [];
    for (const row of Array.from(document.querySelectorAll(".model-row:not(.model-row-head)"))) {
      if (
        !shown(row.querySelector("[data-testid=action-delete]")) &&
        !shown(row.querySelector("[data-testid=model-actions-menu]"))
      )
        missing.push(`model row "${row.textContent?.trim().slice(0, 30)}" has no Delete and no menu`);
    }
    for (const row of Array.from(document.querySelectorAll("[data-testid$=-history-row]"))) {
      if (!shown(row.querySelector("[data-testid=delete-result]")))
        missing.push(`history row ${row.getAttribute("data-result-id")} has no Delete`);
    }
    return missing;
  });
}

/** Model-row content that spills out of its cell into the next column (a long id, alias or tag). */
async function spilledRowContent(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const spilled: string[] = [];
    for (const cell of Array.from(document.querySelectorAll<HTMLElement>(".model-row [role=cell]"))) {
      const box = cell.getBoundingClientRect();
      for (const inner of Array.from(cell.querySelectorAll<HTMLElement>("*"))) {
        const own = inner.getBoundingClientRect();
        if (own.width === 0 || own.right <= box.right + 1) continue;
        // Cut by an ancestor inside the cell (overflow hidden): not visible beyond it.
        let clipped = false;
        for (
          let parent = inner.parentElement;
          parent && parent !== cell.parentElement;
          parent = parent.parentElement
        ) {
          if (
            getComputedStyle(parent).overflowX !== "visible" &&
            parent.getBoundingClientRect().right <= box.right + 1
          ) {
            clipped = true;
            break;
          }
        }
        if (!clipped)
          spilled.push(
            `"${inner.textContent?.trim().slice(0, 30)}" ends at ${Math.round(own.right)}, its cell at ${Math.round(box.right)}`,
          );
      }
    }
    return spilled;
  });
}

describe("layout", () => {
  beforeAll(async () => {
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-e2e-layout-"));
    const models = await ensureTestModels();
    fs.mkdirSync(path.join(basePath, "models"), { recursive: true });
    for (const file of [models.main, models.draft]) {
      fs.symlinkSync(file, path.join(basePath, "models", path.basename(file)));
    }
    // A file whose GGUF header cannot be read: its row says so and offers no benchmark.
    fs.writeFileSync(
      path.join(basePath, "models", "unreadable.gguf"),
      Buffer.concat([Buffer.from("GGUF"), Buffer.from([3, 0, 0, 0]), Buffer.from("garbage")]),
    );
    server = new PerchServerProcess({ port: await freePort(), basePath });
    await server.start();
    browser = await launchChromium();
    // A conversation, so the chat page has messages to lay out.
    const created = await fetch(`${server.url}/admin/api/conversations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model_id: path.basename(models.main, ".gguf"),
        title: "Layout check",
        sampling: { max_tokens: 32, temperature: 0 },
      }),
    });
    const { id } = (await created.json()) as { id: string };
    const reply = await fetch(`${server.url}/admin/api/conversations/${id}/replies`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "send", content: "Write `fib(n)` in Python, please." }),
    });
    const { reply_id } = (await reply.json()) as { reply_id: string };
    await (await fetch(`${server.url}/admin/api/chat/replies/${reply_id}/stream`)).text();
    // A long alias and a long tag on the draft model's row: each must stay in its column.
    await fetch(
      `${server.url}/admin/api/models/${encodeURIComponent(path.basename(models.draft, ".gguf"))}/settings`,
      {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          alias: "kbd-alias",
          tags: ["a-very-long-tag-name-that-goes-on-and-on-and-on-for-sixty-chars"],
        }),
      },
    );
    // A performance result, so the history tables have rows (and their actions) to lay out.
    const started = await fetch(`${server.url}/admin/api/bench/start`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model_id: path.basename(models.main, ".gguf"),
        prompt_lengths: [128],
        batch_sizes: [],
        generated_tokens: 8,
      }),
    });
    if (started.status !== 202) throw new Error(`bench/start answered ${started.status}`);
    for (let waited = 0; ; waited += 250) {
      const listed = (await (await fetch(`${server.url}/admin/api/bench/results`)).json()) as {
        results: unknown[];
      };
      if (listed.results.length > 0) break;
      if (waited > 60_000) throw new Error("the performance run did not finish");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The draft as a Hugging Face download whose update check failed: a remote model's row has
    // one more action (Check update) and a status badge.
    await server.stop();
    // Accuracy results on two benchmarks, so the accuracy chart draws its legend (its series
    // colours are its text: 2.65:1 on the dark card once).
    const accuracyDir = path.join(basePath, "benchmarks", "accuracy", "results");
    fs.mkdirSync(accuracyDir, { recursive: true });
    for (const [index, benchmark] of (["humaneval", "gsm8k"] as const).entries()) {
      const result = accuracyResult({
        result_id: `acc-layout-${index}`,
        model_id: path.basename(models.main, ".gguf"),
        benchmark,
        created_at: new Date(Date.now() - (index + 1) * 3_600_000).toISOString(),
      });
      fs.writeFileSync(path.join(accuracyDir, `${result.result_id}.json`), JSON.stringify(result));
    }
    const catalogFile = path.join(basePath, "model_catalog.json");
    const catalog = JSON.parse(fs.readFileSync(catalogFile, "utf8")) as {
      models: Record<string, Record<string, unknown>>;
    };
    Object.assign(catalog.models[path.basename(models.draft, ".gguf")]!, {
      source: "hf",
      repo: "perch-org/perch-test-draft-GGUF",
      remote_path: path.basename(models.draft),
      update_status: "error",
      update_error: "fetch failed",
    });
    fs.writeFileSync(catalogFile, JSON.stringify(catalog));
    await server.start();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (basePath) fs.rmSync(basePath, { recursive: true, force: true });
  });

  for (const colorScheme of ["light", "dark"] as const) {
    for (const size of sizes) {
      it(`keeps every control in view at ${size.width}×${size.height} (${colorScheme})`, async () => {
        const page = await browser.newPage({ viewport: size, colorScheme, locale: "en-US" });
        try {
          for (const name of pages) {
            await page.goto(`${server.url}/#/${name}`);
            await page.getByTestId(`${name}-page`).waitFor();
            if (name === "models") {
              await page.getByTestId("model-row").first().waitFor();
              const unreadable = page.locator('[data-model-id="unreadable"]');
              expect(await unreadable.getByTestId("model-unreadable").textContent()).toContain(
                "Not a readable GGUF file",
              );
              const benchmark = unreadable.getByTestId("action-benchmark");
              if (await benchmark.isVisible()) expect(await benchmark.isDisabled()).toBe(true);
            }
            if (name === "chat") {
              await page.getByTestId("conversation-item").first().getByRole("button").first().click();
              await page.getByTestId("chat-message-assistant").waitFor();
            }
            await page.waitForTimeout(200);
            const wanted =
              (size.width === 900 && colorScheme === "light") ||
              (size.width === 1280 && colorScheme === "dark");
            if (wanted && (name === "models" || name === "chat" || name === "benchmarks")) {
              const label = size.width === 900 ? "narrow" : "dark";
              await page.screenshot({ path: path.join(screenshots, `${label}-${name}.png`) });
            }
            const where = `${name} at ${size.width}×${size.height} ${colorScheme}`;
            expect((await clippedControls(page)).join("\n"), where).toBe("");
            if (name === "models")
              expect((await spilledRowContent(page)).join("\n"), `rows, ${where}`).toBe("");
            expect((await lowContrastText(page)).join("\n"), `contrast, ${where}`).toBe("");
            expect((await unreachableRowActions(page)).join("\n"), `row actions, ${where}`).toBe("");
            expect((await verticallyClippedElements(page)).join("\n"), `vertical, ${where}`).toBe("");
            if (name === "chat") {
              await page.getByTestId("chat-options-toggle").click();
              await page.getByTestId("chat-options").waitFor();
              await page.waitForTimeout(100);
              const chatParts = ["chat-toolbar", "chat-options", "chat-messages", "chat-composer"];
              expect((await overlappingBoxes(page, chatParts)).join("\n"), `chat options, ${where}`).toBe("");
              expect((await clippedControls(page)).join("\n"), `chat options, ${where}`).toBe("");
              expect((await verticallyClippedElements(page)).join("\n"), `chat options, ${where}`).toBe("");
              const messages = await page.getByTestId("chat-messages").boundingBox();
              // The conversation keeps room to read: at least a third of the window's height.
              expect(messages!.height, `chat messages height, ${where}`).toBeGreaterThan(size.height / 3);
              if (wanted) {
                const label = size.width === 900 ? "narrow" : "dark";
                await page.screenshot({ path: path.join(screenshots, `${label}-chat-options.png`) });
              }
              await page.getByTestId("chat-options-toggle").click();
              // The side-by-side comparison holds too.
              await page.getByTestId("chat-compare-toggle").click();
              await page.getByTestId("compare-panel").waitFor();
              expect((await clippedControls(page)).join("\n"), `compare, ${where}`).toBe("");
              expect((await verticallyClippedElements(page)).join("\n"), `compare, ${where}`).toBe("");
              await page.getByTestId("chat-compare-toggle").click();
            }
            if (name === "models") {
              // The model-settings sheet, opened from the row (its menu in a narrow window).
              const menu = page.getByTestId("model-actions-menu").first();
              if (await menu.isVisible()) {
                await menu.click();
                await page.getByTestId("menu-settings").click();
              } else await page.getByTestId("action-settings").first().click();
              await page.getByTestId("settings-modal").waitFor();
              expect((await clippedControls(page)).join("\n"), `settings modal, ${where}`).toBe("");
              await page.keyboard.press("Escape");
            }
          }
        } finally {
          await page.close();
        }
      });
    }
  }

  it("keeps Size, the ⋯ menu and the history's Reset reachable in a 700×700 browser window", async () => {
    const page = await browser.newPage({ viewport: { width: 700, height: 700 }, locale: "en-US" });
    try {
      for (const name of ["models", "benchmarks"] as const) {
        await page.goto(`${server.url}/#/${name}`);
        await page.getByTestId(`${name}-page`).waitFor();
        if (name === "models") await page.getByTestId("model-row").first().waitFor();
        else await page.getByTestId("performance-history-row").first().waitFor();
        await page.waitForTimeout(200);
        const where = `${name} at 700×700`;
        expect((await clippedControls(page)).join("\n"), where).toBe("");
        expect((await unreachableRowActions(page)).join("\n"), `row actions, ${where}`).toBe("");
        if (name !== "models") continue;
        expect((await spilledRowContent(page)).join("\n"), `rows, ${where}`).toBe("");
        // The Size column gives way: each row names its size beside its facts instead.
        for (const row of await page.getByTestId("model-row").all())
          expect(await row.locator(".model-size-inline").isVisible(), where).toBe(true);
      }
    } finally {
      await page.close();
    }
  });

  it("gives each page the whole width of a 480×800 phone-sized window, the pages in a bar on top", async () => {
    // The 212 px sidebar stayed: every page scrolled sideways, the chat's message box was a few
    // letters wide and the Server page's addresses broke one character per line.
    const page = await browser.newPage({ viewport: { width: 480, height: 800 }, locale: "en-US" });
    try {
      for (const name of pages) {
        await page.goto(`${server.url}/#/${name}`);
        await page.getByTestId(`${name}-page`).waitFor();
        await page.waitForTimeout(200);
        const where = `${name} at 480×800`;
        expect((await clippedControls(page)).join("\n"), where).toBe("");
        const nav = await page.locator("nav.sidebar").boundingBox();
        const content = await page.locator("main.content").boundingBox();
        expect(nav!.y + nav!.height, `the pages' bar is above the page, ${where}`).toBeLessThanOrEqual(
          content!.y + 1,
        );
        expect(content!.width, where).toBeGreaterThanOrEqual(470);
        expect(nav!.height, `the bar keeps its own height, ${where}`).toBeLessThan(160);
      }
      await page.goto(`${server.url}/#/chat`);
      await page.getByTestId("chat-input").waitFor();
      expect((await page.getByTestId("chat-input").boundingBox())!.width).toBeGreaterThan(300);
      // A conversation's title on a row of its own: beside the model menu it was cut to "Write …".
      const titled = await fetch(`${server.url}/admin/api/conversations`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Write a haiku · about the sea and the night" }),
      });
      const { id: titledId } = (await titled.json()) as { id: string };
      await page.goto(`${server.url}/#/chat/${titledId}`);
      const title = page.locator(".chat-title");
      await expect.poll(() => title.textContent()).toContain("the night");
      expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      await fetch(`${server.url}/admin/api/conversations/${titledId}`, { method: "DELETE" });
      await page.goto(`${server.url}/#/server`);
      await page.getByTestId("endpoint-openai").waitFor();
      for (const url of await page.locator(".endpoint-url").all()) {
        const box = (await url.boundingBox())!;
        const lineHeight = await url.evaluate(
          (element) => parseFloat(getComputedStyle(element).lineHeight) || 20,
        );
        expect(box.height, `${await url.textContent()} on one line`).toBeLessThan(lineHeight * 1.5);
      }
    } finally {
      await page.close();
    }
  });

  it("shows the last model row's ⋯ menu whole (the table does not cut it off)", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 800 }, locale: "en-US" });
    try {
      await page.goto(`${server.url}/#/models`);
      await page.getByTestId("model-row").first().waitFor();
      await page.getByTestId("model-actions-menu").last().click();
      const items = page.locator(".model-row:last-child [role=menuitem]");
      await items.first().waitFor();
      const hidden = await items.evaluateAll((elements) =>
        elements
          .filter((element) => {
            const box = element.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return !element.contains(hit);
          })
          .map((element) => element.textContent),
      );
      expect(hidden).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("renders numbers and dates in German and Japanese through Intl", async () => {
    for (const [locale, speed, date] of [
      ["de-DE", /\d+,\d Tok\.\/s|\d{3,} Tok\.\/s/, /\d{2}\.\d{2}\.\d{4}/],
      ["ja-JP", /[\d.]+ tok\/s/, /\d{4}\/\d{2}\/\d{2}/],
    ] as const) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale });
      try {
        await page.goto(`${server.url}/#/chat`);
        await page.getByTestId("conversation-item").first().getByRole("button").first().click();
        const stats = page.getByTestId("chat-message-assistant").getByTestId("reply-stats");
        await stats.waitFor();
        expect(await stats.textContent()).toMatch(speed);
        expect(await page.getByTestId("conversation-item").textContent()).toMatch(date);
      } finally {
        await page.close();
      }
    }
  });
});
