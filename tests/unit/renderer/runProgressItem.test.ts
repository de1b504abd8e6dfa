import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { RunProgressItem } from "../../../src-renderer/benchmarks/RunProgressItem.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import { newLiveRun, type LiveRun } from "../../../src-renderer/store/LiveRun.js";
import { StoreProvider } from "../../../src-renderer/store/StoreContext.js";
import { storeWith } from "./fakeClient.js";

const render = (run: LiveRun) =>
  renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n("en") },
      createElement(StoreProvider, {
        store: storeWith({}).store,
        children: createElement(RunProgressItem, { run }),
      }),
    ),
  );
const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("run card", () => {
  it("keeps a space between a benchmark's score and its View result link", () => {
    const run: LiveRun = {
      ...newLiveRun("accuracy", "r1", "m", 0, ["humaneval"]),
      status: "completed",
      outcomes: [
        { benchmark: "humaneval", status: "completed", correct: 0, total: 6, accuracy: 0, resultId: "acc-1" },
      ],
    };
    expect(text(render(run))).toContain("humaneval: 0.0% correct (0 of 6) View result");
  });

  it("says an interrupted run was stopped with Perch, not that it failed", () => {
    const run: LiveRun = {
      ...newLiveRun("accuracy", "r1", "m", 0),
      status: "interrupted",
      error: "network error",
    };
    const html = text(render(run));
    expect(html).toContain("Interrupted");
    expect(html).toContain("Perch stopped while this run was going");
    expect(html).not.toContain("stopped with an error");
  });
});
