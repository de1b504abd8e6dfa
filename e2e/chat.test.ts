import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTestModels } from "../tests/helpers/testModels.js";
import { freePort } from "./freePort.js";
import { launchChromium } from "./launchChromium.js";
import { PerchServerProcess } from "./PerchServerProcess.js";
import { overlappingBoxes, verticallyClippedElements } from "./verticalLayout.js";
import { neverEndingFormat } from "../tests/helpers/inferenceClient.js";

/*
 * The chat page end to end: a real `perch serve` with the generated test model and its draft
 * model (which sorts first, so a careless default would pick it), Debian's chromium.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const screenshots = path.join(repoRoot, "docs/screenshots");

let server: PerchServerProcess;
let browser: Browser;
let page: Page;
let basePath: string;
let mainId = "";
let draftId = "";

async function openChat(): Promise<void> {
  await page.goto(`${server.url}/#/chat`);
  await page.getByTestId("chat-page").waitFor();
}

/** Sets a sampling field in the options panel (saved when the field loses focus). */
async function setSampling(key: string, value: string): Promise<void> {
  const field = page.getByTestId(`chat-sampling-${key}`);
  await field.fill(value);
  await field.blur();
}

describe("chat", () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(repoRoot, "dist/renderer/index.html"))) {
      throw new Error("dist/renderer is missing: run `npm run build:renderer` (npm run test:e2e does).");
    }
    basePath = fs.mkdtempSync(path.join(os.tmpdir(), "perch-e2e-chat-"));
    const models = await ensureTestModels();
    fs.mkdirSync(path.join(basePath, "models"), { recursive: true });
    for (const file of [models.main, models.draft]) {
      fs.symlinkSync(file, path.join(basePath, "models", path.basename(file)));
    }
    mainId = path.basename(models.main, ".gguf");
    draftId = path.basename(models.draft, ".gguf");
    server = new PerchServerProcess({ port: await freePort(), basePath });
    await server.start();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    page.setDefaultTimeout(20_000);
    page.on("pageerror", (error) => process.stderr.write(`[page error] ${error.message}\n`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (basePath) fs.rmSync(basePath, { recursive: true, force: true });
  });

  it("starts on the main model, not the draft model that sorts first", async () => {
    expect(draftId < mainId).toBe(true);
    await openChat();
    await expect.poll(() => page.getByTestId("chat-model").inputValue()).toBe(mainId);
  });

  it("streams a reply on the generated model, with its speed, and saves it", async () => {
    await page.getByTestId("chat-options-toggle").click();
    await setSampling("max_tokens", "24");
    await setSampling("temperature", "0");
    await page.getByTestId("chat-system-prompt").fill("Answer briefly.");
    await page.getByTestId("chat-system-prompt").blur();
    await page.getByTestId("chat-input").fill("Hello, **model**");
    await page.getByTestId("chat-input").press("Enter");
    const reply = page.getByTestId("chat-message-assistant");
    await reply.waitFor();
    await expect.poll(() => reply.getByTestId("reply-stats").textContent()).toMatch(/first token \d+ ms/);
    expect(await reply.getByTestId("reply-stats").textContent()).toMatch(/tok\/s.*tokens?/);
    expect(await page.getByTestId("chat-message-user").textContent()).toContain("Hello, **model**");
    await expect.poll(() => page.getByTestId("conversation-item").count()).toBe(1);
    expect(await page.getByTestId("conversation-item").textContent()).toContain("Hello, **model**");
    const files = fs
      .readdirSync(path.join(basePath, "conversations"))
      .filter((name) => name.endsWith(".json"));
    expect(files).toHaveLength(1);
    const saved = JSON.parse(fs.readFileSync(path.join(basePath, "conversations", files[0]!), "utf8"));
    expect(saved).toMatchObject({
      model_id: mainId,
      system_prompt: "Answer briefly.",
      sampling: { max_tokens: 24 },
    });
    expect(saved.messages.map((message: { role: string }) => message.role)).toEqual(["user", "assistant"]);
  });

  it("does not send while an option on screen is not valid, and can once it is fixed", async () => {
    const before = await page.getByTestId("chat-message-user").count();
    await setSampling("temperature", "-1");
    await page.getByTestId("chat-input").fill("Use what I see");
    await page.getByTestId("chat-input").press("Enter");
    await page.getByTestId("chat-options-invalid").waitFor();
    expect(await page.getByTestId("chat-send").isDisabled()).toBe(true);
    expect(await page.getByTestId("chat-message-user").count()).toBe(before);
    await setSampling("temperature", "0");
    await page.getByTestId("chat-options-invalid").waitFor({ state: "detached" });
    expect(await page.getByTestId("chat-send").isDisabled()).toBe(false);
    // Closing the options drops what was typed there: the saved values apply, nothing blocks.
    await setSampling("top_p", "5");
    await page.getByTestId("chat-options-invalid").waitFor();
    await page.getByTestId("chat-options-toggle").click();
    await page.getByTestId("chat-options-invalid").waitFor({ state: "detached" });
    await page.getByTestId("chat-options-toggle").click();
    expect(await page.getByTestId("chat-sampling-top_p").inputValue()).toBe("");
    await page.getByTestId("chat-input").fill("");
  });

  it("Escape leaves the edit of a message without changing it", async () => {
    const user = page.getByTestId("chat-message-user").first();
    const before = await user.textContent();
    await user.hover();
    await user.getByTestId("chat-edit").click();
    // The edit box takes the focus: Escape (typed, not sent to an element) leaves it.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("chat-edit-input");
    await page.keyboard.type(" and more");
    expect(await page.getByTestId("chat-edit-input").inputValue()).toMatch(/\S and more$/);
    await page.keyboard.press("Escape");
    await page.getByTestId("chat-edit-input").waitFor({ state: "detached" });
    // The focus goes back to Edit, not to the page.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("chat-edit");
    expect(await user.textContent()).toBe(before);
  });

  it("gives a message the server did not take back to the message box", async () => {
    await page.route("**/admin/api/conversations/*/replies", (route) =>
      route.fulfill({
        status: 503,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "unavailable", message: "try again" } }),
      }),
    );
    try {
      await page.getByTestId("chat-input").fill("a message worth keeping");
      await page.getByTestId("chat-input").press("Enter");
      await expect.poll(() => page.getByTestId("chat-input").inputValue()).toBe("a message worth keeping");
    } finally {
      await page.unroute("**/admin/api/conversations/*/replies");
    }
    await page.getByTestId("chat-input").fill("");
  });

  it("stops a long reply with the Stop button; the partial reply is kept", async () => {
    await setSampling("max_tokens", "20000");
    // A reply that cannot end by itself (the schema wants 1500 numbers), so Stop is what ends it:
    // free text at temperature 1 may sample the end token after a few dozen tokens.
    await page.getByTestId("chat-json-mode").check();
    const schema = page.getByTestId("chat-json-schema");
    await schema.fill(JSON.stringify(neverEndingFormat.response_format.json_schema.schema));
    await schema.blur();
    await page.getByTestId("chat-input").fill("Tell me a long story");
    await page.getByTestId("chat-send").click();
    const live = page.getByTestId("chat-live-reply");
    await live.waitFor();
    // Streaming: text arrives while the reply is still being generated.
    await expect
      .poll(async () => ((await live.textContent()) ?? "").length, { timeout: 20_000 })
      .toBeGreaterThan(5);
    await page.screenshot({ path: path.join(screenshots, "chat.png") });
    // With the options open (JSON schema mode filled in) nothing covers the streaming reply.
    const parts = ["chat-toolbar", "chat-options", "chat-messages", "chat-composer"];
    expect((await overlappingBoxes(page, parts)).join("\n")).toBe("");
    expect((await verticallyClippedElements(page)).join("\n")).toBe("");
    await page.getByTestId("chat-stop").click();
    await live.waitFor({ state: "detached" });
    const last = page.getByTestId("chat-message-assistant").last();
    await expect.poll(() => last.textContent()).toContain("Stopped before the end.");
    expect(await page.getByTestId("chat-send").isVisible()).toBe(true);
    // Stop gave way to a disabled Send: the keyboard's focus is in the message box, not lost.
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("chat-input");
  });

  it("reopens the conversation and follows its reply still generating after a reload; Escape stops it", async () => {
    // The conversation above keeps its never-ending JSON schema and 20000 max tokens.
    await page.getByTestId("chat-input").fill("Another long story");
    await page.getByTestId("chat-send").click();
    await page.getByTestId("chat-live-reply").waitFor();
    // The URL names the open conversation: the reload reopens it and follows its reply, no click.
    expect(new URL(page.url()).hash).toMatch(/^#\/chat\/.+/);
    await page.reload();
    await page.getByTestId("chat-page").waitFor();
    const live = page.getByTestId("chat-live-reply");
    await live.waitFor();
    // The stream replays from its start: the text so far shows and grows.
    await expect
      .poll(async () => ((await live.textContent()) ?? "").length, { timeout: 20_000 })
      .toBeGreaterThan(5);
    await page.getByTestId("chat-input").press("Escape");
    await live.waitFor({ state: "detached" });
    const last = page.getByTestId("chat-message-assistant").last();
    await expect.poll(() => last.textContent()).toContain("Stopped before the end.");
  });

  it("shows the reply a restart cut, saved as stopped, once the server is back (no message needed)", async () => {
    // The conversation above keeps its never-ending JSON schema: the restart is what ends it.
    await page.getByTestId("chat-input").fill("A story the restart cuts");
    await page.getByTestId("chat-send").click();
    await expect.poll(() => page.getByTestId("chat-message-user").count(), { timeout: 10_000 }).toBe(4);
    const live = page.getByTestId("chat-live-reply");
    await expect
      .poll(async () => ((await live.textContent()) ?? "").length, { timeout: 20_000 })
      .toBeGreaterThan(5);
    await server.restart();
    // The page stays open: the sidebar's poll finds the server again, the notice goes, and the
    // reply the server saved on its way down is read back.
    await expect.poll(() => page.getByTestId("chat-message-assistant").count(), { timeout: 30_000 }).toBe(4);
    const last = page.getByTestId("chat-message-assistant").last();
    expect(await last.textContent()).toContain("Stopped before the end.");
    await expect.poll(() => page.getByTestId("chat-error").count(), { timeout: 10_000 }).toBe(0);
    expect(await page.getByTestId("chat-message-user").last().textContent()).toContain(
      "A story the restart cuts",
    );
  });

  it("keeps the conversation across a server restart", async () => {
    await server.restart();
    await openChat();
    await expect.poll(() => page.getByTestId("conversation-item").count()).toBe(1);
    await page.getByTestId("conversation-item").getByRole("button").first().click();
    // Four exchanges: the first reply, and the three stopped ones (one followed across a reload,
    // one cut by a restart).
    await expect.poll(() => page.getByTestId("chat-message-user").count()).toBe(4);
    expect(await page.getByTestId("chat-message-assistant").count()).toBe(4);
    expect(await page.getByTestId("chat-message-assistant").last().textContent()).toContain(
      "Stopped before the end.",
    );
    expect(await page.getByTestId("chat-model").inputValue()).toBe(mainId);
    // Regenerate's message goes away with its button: the focus goes to the message box, where
    // Escape stops the new (never-ending) reply.
    await page.getByTestId("chat-regenerate").click();
    await page.getByTestId("chat-live-reply").waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("chat-input");
    await page.keyboard.press("Escape");
    await page.getByTestId("chat-live-reply").waitFor({ state: "detached" });
  });

  it("renames, exports as Markdown and deletes a conversation", async () => {
    const item = page.getByTestId("conversation-item");
    await item.getByTestId("conversation-menu").click();
    await page.getByTestId("conversation-action-rename").click();
    await page.getByTestId("conversation-rename").fill("Story time");
    await page.getByTestId("conversation-rename").press("Enter");
    await expect.poll(() => item.textContent()).toContain("Story time");
    expect(await page.evaluate(() => document.activeElement?.className)).toBe("conversation-open");
    await item.getByTestId("conversation-menu").click();
    const download = page.waitForEvent("download");
    await page.getByTestId("conversation-action-export").click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^Story-time-.*\.md$/);
    const markdown = fs.readFileSync((await file.path())!, "utf8");
    expect(markdown.startsWith("# Story time\n")).toBe(true);
    expect(markdown).toContain("## User\n\nTell me a long story");
    await item.getByTestId("conversation-menu").click();
    await page.getByTestId("conversation-action-delete").click();
    // Escape keeps it, and the focus goes back to the "⋯" the action came from.
    await page.getByTestId("confirm-ok").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("confirm-ok").waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "conversation-menu",
    );
    await item.getByTestId("conversation-menu").click();
    await page.getByTestId("conversation-action-delete").click();
    await page.getByTestId("confirm-ok").click();
    await expect.poll(() => item.count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid")))
      .toBe("chat-new");
    expect(
      fs.readdirSync(path.join(basePath, "conversations")).filter((name) => name.endsWith(".json")),
    ).toEqual([]);
  });

  it("a conversation whose model was deleted shows it gone and sends once another is picked", async () => {
    const created = await fetch(`${server.url}/admin/api/conversations`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model_id: "a-deleted-model", title: "Orphan" }),
    });
    const { id } = (await created.json()) as { id: string };
    try {
      await openChat();
      await page.reload();
      await page
        .getByTestId("conversation-item")
        .filter({ hasText: "Orphan" })
        .getByRole("button")
        .first()
        .click();
      await expect
        .poll(() => page.getByTestId("chat-model").locator("option:checked").textContent())
        .toContain("a-deleted-model (deleted");
      await page.getByTestId("chat-input").fill("Still there?");
      expect(await page.getByTestId("chat-send").isDisabled()).toBe(true);
      await page.getByTestId("chat-model").selectOption(mainId);
      await expect.poll(() => page.getByTestId("chat-send").isDisabled()).toBe(false);
      await page.getByTestId("chat-input").fill("");
    } finally {
      await fetch(`${server.url}/admin/api/conversations/${id}`, { method: "DELETE" });
    }
  });

  it("keeps a reply whose model was deleted: Regenerate and Edit's Save and send are off, as Send is", async () => {
    const api = (method: string, url: string, body?: unknown) =>
      fetch(`${server.url}${url}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await api("POST", "/admin/api/conversations", {
      model_id: mainId,
      title: "Answered",
      sampling: { temperature: 0, max_tokens: 4 },
    });
    const { id } = (await created.json()) as { id: string };
    try {
      expect(
        (await api("POST", `/admin/api/conversations/${id}/replies`, { action: "send", content: "hello" }))
          .status,
      ).toBe(202);
      const messages = async () =>
        ((await (await api("GET", `/admin/api/conversations/${id}`)).json()) as { messages: unknown[] })
          .messages;
      await expect.poll(async () => (await messages()).length, { timeout: 20_000 }).toBe(2);
      // As if the model's file was deleted since: the conversation names a model that is gone.
      expect(
        (await api("PUT", `/admin/api/conversations/${id}`, { model_id: "a-deleted-model" })).status,
      ).toBe(200);
      await page.goto(`${server.url}/#/chat/${id}`);
      await page.getByTestId("chat-message-assistant").waitFor();
      expect(await page.getByTestId("chat-regenerate").isDisabled()).toBe(true);
      await page.getByTestId("chat-edit").click();
      await page.getByTestId("chat-edit-input").fill("hello again");
      expect(await page.getByTestId("chat-edit-send").isDisabled()).toBe(true);
      await page.getByTestId("chat-edit-input").press("Escape");
      expect((await messages()).length).toBe(2);
    } finally {
      await api("DELETE", `/admin/api/conversations/${id}`);
    }
  });

  it("shows the running server's port and folders on the settings page, not stale defaults", async () => {
    await page.goto(`${server.url}/#/settings`);
    await page.getByTestId("settings-page").waitFor();
    const port = new URL(server.url).port;
    await expect.poll(() => page.getByTestId("settings-running").textContent()).toContain(`:${port}`);
    expect(await page.getByTestId("settings-port").inputValue()).toBe("11435");
    expect(await page.getByTestId("global-settings").textContent()).toContain(`Running now with ${port}`);
    expect(await page.getByTestId("global-settings").textContent()).toContain(path.join(basePath, "models"));
    // A bad value is refused on its field before anything is sent; every bad field at once, said
    // in words (not zod's "Too big: expected number to be <=65535"), hex not read as a number.
    await page.getByTestId("settings-host").fill("not a host!!");
    await page.getByTestId("settings-port").fill("70000");
    await page.getByTestId("settings-ttl").fill("-5");
    await page.getByTestId("settings-memory-budget").fill("0.0001");
    await page.getByTestId("settings-threads").fill("0x1");
    await page.getByTestId("settings-save-global").click();
    for (const field of ["host", "port", "ttl", "memory-budget", "threads"])
      await page.locator(`.field-invalid [data-testid=settings-${field}]`).waitFor();
    const form = (await page.getByTestId("global-settings").textContent()) ?? "";
    expect(form).toContain("Must be at most 65535");
    expect(form).toContain("Enter a number");
    expect(form).toContain("An IP address (127.0.0.1, 0.0.0.0, ::1) or a host name");
    expect(form).not.toMatch(/Too big|Too small|Invalid input/);
    await page.reload();
  });

  it("saves a Hugging Face token without ever showing it, and validates the threads field", async () => {
    await page.reload();
    await page.getByTestId("settings-page").waitFor();
    const token = page.getByTestId("settings-hf-token");
    expect(await token.getAttribute("placeholder")).toBe("No token: only public repositories");
    expect(await page.getByTestId("settings-threads").getAttribute("placeholder")).toMatch(
      /^Default: \d+ on this computer$/,
    );
    await page.getByTestId("settings-threads").fill("0");
    await page.getByTestId("settings-save-global").click();
    await page.locator(".field-invalid [data-testid=settings-threads]").waitFor();
    await page.getByTestId("settings-threads").fill("2");
    // The memory budget: a slip far below any model is refused; a decimal comma is a decimal.
    const budget = page.getByTestId("settings-memory-budget");
    await budget.fill("0.0000001");
    await page.getByTestId("settings-save-global").click();
    await page.locator(".field-invalid [data-testid=settings-memory-budget]").waitFor();
    await budget.fill("1,5");
    await token.fill("hf_e2e_secret_token");
    await page.getByTestId("settings-save-global").click();
    await expect.poll(() => token.getAttribute("placeholder")).toMatch(/A token is saved/);
    expect(await token.inputValue()).toBe("");
    expect(await page.content()).not.toContain("hf_e2e_secret_token");
    const saved = JSON.parse(fs.readFileSync(path.join(basePath, "settings.json"), "utf8"));
    expect(saved).toMatchObject({
      hf_token: "hf_e2e_secret_token",
      threads: 2,
      memory_budget_bytes: 1.5 * 1024 ** 3,
    });
    // Clearing it: the box is offered only while a token is saved.
    await page.getByTestId("settings-hf-token-remove").check();
    await budget.fill("");
    await page.getByTestId("settings-save-global").click();
    await expect.poll(() => token.getAttribute("placeholder")).toBe("No token: only public repositories");
    expect(JSON.parse(fs.readFileSync(path.join(basePath, "settings.json"), "utf8")).hf_token).toBeNull();
  });

  it("lists the base URL each client should use on the server page, with working copy buttons", async () => {
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(`${server.url}/#/server`);
    await page.reload(); // No toasts left over from the settings saved above in the screenshot.
    const endpoints = page.getByTestId("server-endpoints");
    await endpoints.waitFor();
    expect(await endpoints.getByTestId("endpoint-openai").locator("code").textContent()).toBe(
      `${server.url}/v1`,
    );
    expect(await endpoints.getByTestId("endpoint-anthropic").locator("code").textContent()).toBe(server.url);
    expect(await endpoints.getByTestId("endpoint-ollama").locator("code").textContent()).toBe(server.url);
    await endpoints.getByTestId("copy-openai").click();
    await expect.poll(() => endpoints.getByTestId("copy-openai").textContent()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${server.url}/v1`);
    await page.screenshot({ path: path.join(screenshots, "server.png"), fullPage: true });
  });

  it("compares two models side by side on one prompt, each with its first-token time and speed", async () => {
    await page.goto(`${server.url}/#/chat`);
    await page.reload();
    await page.getByTestId("chat-page").waitFor();
    await page.getByTestId("chat-options-toggle").click();
    await setSampling("max_tokens", "16");
    await setSampling("temperature", "0");
    await page.getByTestId("chat-compare-toggle").click();
    const panel = page.getByTestId("compare-panel");
    await panel.waitFor();
    await page.getByTestId("compare-model-left").selectOption(mainId);
    await page.getByTestId("compare-model-right").selectOption(draftId);
    await page.getByTestId("compare-prompt").fill("Name three birds.");
    // Enter runs it, as in the message box.
    await page.getByTestId("compare-prompt").press("Enter");
    const lanes = panel.getByTestId("compare-lane");
    await expect.poll(() => lanes.count()).toBe(2);
    for (const index of [0, 1]) {
      await expect
        .poll(() => lanes.nth(index).getAttribute("data-status"), { timeout: 60_000 })
        .toBe("completed");
      expect(await lanes.nth(index).getByTestId("reply-stats").textContent()).toMatch(
        /first token \d+ ms.*tok\/s/,
      );
    }
    expect(await lanes.nth(0).textContent()).toContain("Perch test model");
    expect(await lanes.nth(1).textContent()).toContain("Perch test draft model");
    // Each side is saved as a conversation of its own, with the chat's sampling.
    await expect.poll(() => page.getByTestId("conversation-item").count()).toBe(2);
    const saved = fs
      .readdirSync(path.join(basePath, "conversations"))
      .filter((name) => name.endsWith(".json"))
      .map((name) => JSON.parse(fs.readFileSync(path.join(basePath, "conversations", name), "utf8")));
    expect(saved.map((conversation) => conversation.model_id).sort()).toEqual([draftId, mainId].sort());
    expect(saved.every((conversation) => conversation.sampling.max_tokens === 16)).toBe(true);
    // Titled by the prompt and the side's model, so the two can be told apart in the list.
    const titles = saved.map((conversation) => conversation.title as string).sort();
    expect(titles[0]).toMatch(/^Name three birds\. · Perch test draft model/);
    expect(titles[1]).toMatch(/^Name three birds\. · Perch test model/);
    const parts = ["chat-toolbar", "chat-options", "compare-panel"];
    expect((await overlappingBoxes(page, parts)).join("\n")).toBe("");
    await page.getByTestId("chat-options-toggle").click();
    await page.screenshot({ path: path.join(screenshots, "chat-compare.png") });
  });

  it("keeps the keyboard's focus in the compare prompt when Compare starts the replies and Stop ends them", async () => {
    // Compare turned disabled and Stop went away under the focus: it fell to the page.
    await page.getByTestId("chat-options-toggle").click();
    await setSampling("max_tokens", "4000");
    await page.getByTestId("chat-options-toggle").click();
    const panel = page.getByTestId("compare-panel");
    await page.getByTestId("compare-prompt").fill("Tell a long story.");
    await page.getByTestId("compare-run").click();
    await page.getByTestId("compare-stop").waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid"));
    await expect.poll(focused).toBe("compare-prompt");
    await page.getByTestId("compare-stop").click();
    const lanes = panel.getByTestId("compare-lane");
    for (const index of [0, 1])
      await expect
        .poll(() => lanes.nth(index).getAttribute("data-status"), { timeout: 30_000 })
        .not.toBe("running");
    await page.getByTestId("compare-stop").waitFor({ state: "detached" });
    await expect.poll(focused).toBe("compare-prompt");
  });

  it("shows the tool call a model makes when the chat offers tools (shown, never run)", async () => {
    await openChat();
    await page.getByTestId("chat-new").click();
    if (await page.getByTestId("compare-panel").isVisible())
      await page.getByTestId("chat-compare-toggle").click();
    if (!(await page.getByTestId("chat-tools-mode").isVisible()))
      await page.getByTestId("chat-options-toggle").click();
    if (await page.getByTestId("chat-json-mode").isChecked())
      await page.getByTestId("chat-json-mode").uncheck();
    await setSampling("max_tokens", "64");
    await page.getByTestId("chat-tools-mode").check();
    const tools = page.getByTestId("chat-tools");
    await tools.fill(
      JSON.stringify([
        {
          type: "function",
          function: {
            name: "get_weather",
            parameters: {
              type: "object",
              properties: { city: { type: "string", maxLength: 10 } },
              required: ["city"],
            },
          },
        },
      ]),
    );
    await tools.blur();
    await page.getByTestId("chat-tools-required").check();
    await page.getByTestId("chat-input").fill("Weather in Oslo?");
    await page.getByTestId("chat-send").click();
    const call = page.getByTestId("chat-message-assistant").last().getByTestId("chat-tool-call");
    await call.waitFor({ timeout: 30_000 });
    expect(await call.textContent()).toContain("get_weather");
    const args = JSON.parse((await call.locator("pre").textContent()) ?? "") as { city: unknown };
    expect(typeof args.city).toBe("string");
    await page.screenshot({ path: path.join(screenshots, "chat-tools.png") });
  });
});
