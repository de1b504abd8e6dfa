import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { AccuracyRunCard } from "../../../src-renderer/benchmarks/AccuracyRunCard.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import { StoreProvider } from "../../../src-renderer/store/StoreContext.js";
import { storeWith } from "./fakeClient.js";

describe("the accuracy run form", () => {
  it("names every select for assistive technology (a label tied to it, or aria-label)", () => {
    const html = renderToStaticMarkup(
      createElement(
        I18nextProvider,
        { i18n: createI18n("en") },
        createElement(StoreProvider, {
          store: storeWith({}).store,
          children: createElement(AccuracyRunCard),
        }),
      ),
    );
    const selects = [...html.matchAll(/<select[^>]*>/g)].map((match) => match[0]);
    expect(selects.length).toBeGreaterThanOrEqual(3);
    for (const select of selects) {
      const id = /\sid="([^"]+)"/.exec(select)?.[1];
      const labelled = select.includes("aria-label=") || (id !== undefined && html.includes(`for="${id}"`));
      expect(labelled, select).toBe(true);
    }
  });
});
