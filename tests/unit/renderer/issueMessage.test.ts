import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { chatSamplingSchema } from "../../../src-shared/contracts/chat.js";
import { globalSettingsPatchSchema } from "../../../src-shared/contracts/settings.js";
import { createClient } from "../../../src-renderer/client/createClient.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import { fieldIssueOf, issueMessage } from "../../../src-renderer/i18n/issueMessage.js";
import { SourceBadge } from "../../../src-renderer/models/SourceBadge.js";
import { toErrorInfo } from "../../../src-renderer/store/ErrorInfo.js";

const locales = ["en", "de", "ja"] as const;
/** zod's own words: none of them may reach the page. */
const zodEnglish = /Too big|Too small|Invalid input|expected|received/;

function say(value: Record<string, unknown>, locale: (typeof locales)[number]) {
  const i18n = createI18n(locale);
  const checked = chatSamplingSchema.safeParse(value);
  if (checked.success) throw new Error("expected a failure");
  const issue = checked.error.issues[0]!;
  return issueMessage(fieldIssueOf(issue), issue.message, i18n.t, locale);
}

describe("field errors in the page's language", () => {
  it.each(locales)("says number limits and expected numbers without zod's English (%s)", (locale) => {
    for (const value of [{ top_p: 1.5 }, { top_k: Number.NaN }, { top_k: 1.5 }, { max_tokens: 0 }]) {
      const text = say(value, locale);
      expect(text).not.toMatch(zodEnglish);
      expect(text.length).toBeGreaterThan(0);
    }
  });

  it("names the limit, in the locale's number format", () => {
    expect(say({ top_p: 1.5 }, "en")).toBe("Must be at most 1");
    expect(say({ max_tokens: 0 }, "de")).toBe("Muss mindestens 1 sein");
    expect(say({ top_k: Number.NaN }, "en")).toBe("Enter a number");
    expect(say({ top_k: 1.5 }, "ja")).toBe("整数を入力してください");
    const i18n = createI18n("de");
    expect(issueMessage({ code: "too_big", origin: "number", maximum: 0.5 }, "x", i18n.t, "de")).toBe(
      "Darf höchstens 0,5 sein",
    );
  });

  it("keeps what the client's own check found through to the form (the model-settings modal's path)", async () => {
    const client = createClient({
      send: async () => ({}),
      open: () => () => {},
    });
    const failure = await client
      .request("putModelSettings", { params: { model_id: "m" }, body: { context_size: 0 } } as never)
      .catch((error: unknown) => error);
    const info = toErrorInfo(failure);
    const field = info.fields[0]!;
    expect(field.issue?.code).toBe("too_small");
    const i18n = createI18n("de");
    expect(issueMessage(field.issue, field.message, i18n.t, "de")).not.toMatch(zodEnglish);
  });

  it("leaves a check's own words (custom) as they are", () => {
    const checked = globalSettingsPatchSchema.safeParse({ host: "not a host!!" });
    const issue = checked.error!.issues[0]!;
    expect(issueMessage(fieldIssueOf(issue), issue.message, createI18n("en").t, "en")).toBe(issue.message);
  });

  it.each([
    ["de", "Lokal"],
    ["ja", "ローカル"],
  ] as const)("labels a local model's source badge in the page's language (%s)", (locale, label) => {
    const html = renderToStaticMarkup(
      createElement(
        I18nextProvider,
        { i18n: createI18n(locale) },
        createElement(SourceBadge, { source: "local" }),
      ),
    );
    expect(html).toContain(`>${label}</span>`);
  });
});
