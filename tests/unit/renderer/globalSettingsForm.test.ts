import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import {
  globalSettingsResponseSchema,
  type GlobalSettingsResponse,
} from "../../../src-shared/contracts/settings.js";
import { GlobalSettingsForm } from "../../../src-renderer/settings/GlobalSettingsForm.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import { StoreProvider } from "../../../src-renderer/store/StoreContext.js";
import { storeWith } from "./fakeClient.js";

const answer = (settings: Record<string, unknown>, effective: Record<string, unknown>) =>
  globalSettingsResponseSchema.parse({
    settings: {
      host: "127.0.0.1",
      port: 11435,
      models_dirs: [],
      api_key_set: false,
      allow_remote_admin: false,
      hf_endpoint: null,
      modelscope_endpoint: null,
      community_upload_url: null,
      community_upload_enabled: false,
      default_ttl_seconds: 900,
      memory_budget_bytes: null,
      python_path: null,
      hf_token_set: false,
      threads: null,
      ...settings,
    },
    effective: {
      host: "127.0.0.1",
      port: 11435,
      models_dirs: ["/base/models"],
      hf_endpoint: "https://huggingface.co",
      modelscope_endpoint: "https://www.modelscope.cn",
      hf_token_source: null,
      threads: 4,
      default_threads: 4,
      ...effective,
    },
    restart_required: [],
  });

const render = (current: GlobalSettingsResponse, locale: "en" | "ja" = "en") =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n(locale) },
      createElement(StoreProvider, {
        store: storeWith({}).store,
        children: createElement(GlobalSettingsForm, { current }),
      }),
    ),
  );
const input = (html: string, testId: string) =>
  new RegExp(`<input[^>]*data-testid="${testId}"[^>]*>`).exec(html)![0];

describe("global settings form", () => {
  it("names what waits for a restart by its labels, and says so on every such field before saving", () => {
    const current = {
      ...answer({}, {}),
      restart_required: ["port", "memory_budget_bytes", "default_ttl_seconds"],
    };
    const html = render(current);
    expect(html).toContain("takes effect after a restart: Port, Memory budget");
    expect(html).not.toContain("memory_budget_bytes");
    const hintAfter = (testId: string) => html.slice(html.indexOf(`data-testid="${testId}"`)).slice(0, 600);
    expect(hintAfter("settings-ttl")).toContain("Takes effect after a restart");
    expect(hintAfter("settings-memory-budget")).toContain("Takes effect after a restart");
  });

  it("shows the threads field with what its default means and the value in use", () => {
    const html = render(answer({}, { threads: 6, default_threads: 4 }));
    expect(input(html, "settings-threads")).toContain('placeholder="Default: 4 on this computer"');
    expect(input(html, "settings-threads")).toContain('value=""');
    expect(html).toContain("In use now: 6");
    const saved = render(answer({ threads: 8 }, {}));
    expect(input(saved, "settings-threads")).toContain('value="8"');
  });

  it("shows a saved memory budget of 1.3 GiB as 1.3", () => {
    const html = render(answer({ memory_budget_bytes: Math.round(1.3 * 1024 ** 3) }, {}));
    expect(input(html, "settings-memory-budget")).toContain('value="1.3"');
  });

  it("shows whether a Hub token is set, never the token, and offers to clear it only when saved", () => {
    const none = render(answer({}, {}));
    expect(input(none, "settings-hf-token")).toContain('type="password"');
    expect(input(none, "settings-hf-token")).toContain('value=""');
    expect(input(none, "settings-hf-token")).toContain("No token: only public repositories");
    expect(input(none, "settings-hf-token-remove")).toContain("disabled");

    const fromEnvironment = render(answer({}, { hf_token_source: "environment" }));
    expect(input(fromEnvironment, "settings-hf-token")).toContain("Using $HF_TOKEN from the environment");

    const saved = render(answer({ hf_token_set: true }, { hf_token_source: "settings" }), "ja");
    expect(input(saved, "settings-hf-token")).toContain("トークンが保存されています");
    expect(input(saved, "settings-hf-token-remove")).not.toContain("disabled");
  });
});
