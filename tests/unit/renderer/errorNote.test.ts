import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createClient } from "../../../src-renderer/client/createClient.js";
import { ErrorNote } from "../../../src-renderer/components/ErrorNote.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import { toErrorInfo } from "../../../src-renderer/store/ErrorInfo.js";

/** The error the accuracy form gets for a sample size the contract refuses (never sent). */
async function refusedSampleSize(sampleSize: number) {
  const client = createClient({
    send: () => Promise.reject(new Error("not sent")),
    open: () => () => {},
  } as never);
  const error = await client
    .request("queueAccuracyRun", {
      body: { model_id: "m", benchmarks: ["humaneval"], sample_size: sampleSize },
    })
    .then(
      () => null,
      (caught: unknown) => caught,
    );
  return toErrorInfo(error);
}

const render = (
  locale: "en" | "de" | "ja",
  error: ReturnType<typeof toErrorInfo>,
  labels?: Record<string, string>,
) =>
  renderToStaticMarkup(
    createElement(I18nextProvider, { i18n: createI18n(locale) }, createElement(ErrorNote, { error, labels })),
  );

describe("ErrorNote", () => {
  it("says a refused field's problem in the page's language, with the form's name for it", async () => {
    const error = await refusedSampleSize(1e9);
    const german = render("de", error, { sample_size: "Stichprobe" });
    expect(german).toContain("Stichprobe: Darf höchstens 100000 sein");
    expect(german).not.toContain("Too big");
    expect(render("ja", error)).toContain("sample_size: 100000 以下にしてください");
  });

  it("names the field's own limit, not the safe-integer one, for a number past 2^53", async () => {
    const html = render("en", await refusedSampleSize(1e20), { sample_size: "Sample size" });
    expect(html).toContain("Sample size: Must be at most 100000");
    expect(html).not.toContain("9007199254740991");
  });

  it("keeps the server's message for other failures", () => {
    const html = render("de", {
      code: "model_not_found",
      message: "Model 'x' not found",
      status: 404,
      param: null,
      fields: [],
    });
    expect(html).toContain("Model &#x27;x&#x27; not found");
  });
});
