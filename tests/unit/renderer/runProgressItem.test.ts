import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { RunProgressItem } from "../../../src-renderer/benchmarks/RunProgressItem.js";
import { newLiveRun, type LiveRun } from "../../../src-renderer/store/LiveRun.js";
import type { ModelRow } from "../../../src-shared/contracts/models.js";
import { renderWithStore } from "./renderWithStore.js";
import { modelRow } from "./fixtures.js";

const render = (run: LiveRun, models: ModelRow[] = []) =>
  renderWithStore(createElement(RunProgressItem, { run }), { models });
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

  it("names the model by its alias as the pickers do, with its id in the title", () => {
    const model = modelRow({ id: "org/qwen-7b-q4", settings: { alias: "Qwen" } });
    const html = render({ ...newLiveRun("accuracy", "r1", "org/qwen-7b-q4", 0), status: "running" }, [model]);
    expect(html).toContain('<span title="org/qwen-7b-q4">Qwen</span>');
  });
});
