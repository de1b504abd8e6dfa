import { cutOffKey } from "../../../src-renderer/chat/ChatMessageView.js";
import { describe, expect, it } from "vitest";
import { flattenPayload } from "../../../src-renderer/benchmarks/flattenPayload.js";
import { accuracyOverTime, modelComparison, speedByPrompt } from "../../../src-renderer/charts/chartData.js";
import { benchmarkLabel } from "../../../src-renderer/format/benchmarkLabel.js";
import { formatBytes } from "../../../src-shared/text/formatBytes.js";
import { formatDuration } from "../../../src-renderer/format/formatDuration.js";
import { formatPercent } from "../../../src-renderer/format/formatPercent.js";
import { formatSpeed } from "../../../src-renderer/format/formatSpeed.js";
import { addTag, draftToSettings, settingsToDraft } from "../../../src-renderer/settings/SettingsDraft.js";
import { applyPerfEvent, newLiveRun } from "../../../src-renderer/store/LiveRun.js";
import { accuracyResult, modelRow, performanceResult } from "./fixtures.js";

describe("formatting", () => {
  it("formats row figures as the issue shows them", () => {
    expect(`↓ ${formatSpeed(812.4)} tok/s`).toBe("↓ 812 tok/s");
    expect(`↑ ${formatSpeed(48.31)} tok/s`).toBe("↑ 48.3 tok/s");
    expect(`${benchmarkLabel("humaneval")} ${formatPercent(0.939)}`).toBe("HE 93.9%");
    expect(benchmarkLabel("livecodebench")).toBe("LCB");
    expect(benchmarkLabel("gsm8k")).toBe("GSM");
    expect(formatBytes(4_370_000_000)).toBe("4.37 GB");
    expect(formatDuration(185)).toBe("3m 05s");
    expect(formatPercent(null)).toBe("–");
  });
});

describe("chart data", () => {
  it("pp/tg by prompt length from the newest result, sorted by length", () => {
    const older = performanceResult({ result_id: "old", created_at: "2026-01-01T00:00:00.000Z" });
    expect(speedByPrompt([older, performanceResult()], "perch-test/perch-test-model-Q8_0")).toEqual([
      { promptTokens: 128, pp: 600, tg: 50 },
      { promptTokens: 1024, pp: 812.4, tg: 48.3 },
    ]);
  });

  it("compares measured models, the chosen one marked", () => {
    const performance = {
      pp_tps: 100,
      tg_tps: 10,
      result_id: "p",
      created_at: "2026-03-01T10:00:00.000Z",
      prompt_tokens: 1024,
      generated_tokens: 128,
      earlier_model_file: false,
    };
    const bars = modelComparison(
      [
        modelRow({ id: "a", performance }),
        modelRow({ id: "b", performance: { ...performance, tg_tps: 20 } }),
        modelRow({ id: "c" }),
      ],
      "a",
    );
    expect(bars.map((bar) => [bar.modelId, bar.selected])).toEqual([
      ["b", false],
      ["a", true],
    ]);
  });

  it("accuracy over time, one series per benchmark", () => {
    const series = accuracyOverTime(
      [
        accuracyResult({ result_id: "b", created_at: "2026-03-02T00:00:00.000Z", accuracy: 0.75 }),
        accuracyResult({
          result_id: "a",
          created_at: "2026-03-01T00:00:00.000Z",
          benchmark: "gsm8k",
          accuracy: 0.25,
        }),
      ],
      "perch-test/perch-test-model-Q8_0",
    );
    expect(series.benchmarks).toEqual(["gsm8k", "humaneval"]);
    expect(series.points.map((point) => point.gsm8k ?? point.humaneval)).toEqual([25, 75]);
  });
});

describe("settings draft", () => {
  it("round-trips settings and leaves empty fields unset", () => {
    const settings = {
      alias: "Coder",
      tags: ["MoE", "fast"],
      sampling: { temperature: 0.2, top_k: 40 },
      context_size: 8192,
      pinned: true,
      // 0 (off) is a value, not an empty field.
      prompt_cache_ram_mib: 0,
      prompt_cache_disk_mib: 2048,
      speculative: { mode: "draft" as const, draftModel: "small" },
      chat_format: "qwen3.5" as const,
    };
    expect(draftToSettings(settingsToDraft(settings))).toEqual(settings);
    expect(draftToSettings(settingsToDraft({}))).toEqual({ tags: [] });
    // "auto" is the default: it is left unset, like an empty field.
    expect(draftToSettings(settingsToDraft({ chat_format: "auto" }))).toEqual({ tags: [] });
  });

  it("adds tags the way the server keeps them", () => {
    expect(addTag(["MoE"], "  moe ")).toEqual(["MoE"]);
    expect(addTag(["MoE"], " Dense ")).toEqual(["MoE", "Dense"]);
    // Cut at 64 characters, not UTF-16 units: a 64th-character emoji stays whole.
    const long = `${"a".repeat(63)}🚀🚀`;
    expect(addTag([], long)).toEqual([`${"a".repeat(63)}🚀`]);
    expect(addTag([], "x".repeat(80))[0]).toHaveLength(64);
    expect(addTag(["a"], "   ")).toEqual(["a"]);
  });
});

describe("performance run progress", () => {
  it("counts tests, names the current one and ends with the result id", () => {
    const base = { run_id: "r1", at: "2026-03-01T10:00:00.000Z" };
    let run = newLiveRun("performance", "r1", "m", 0);
    run = applyPerfEvent(
      run,
      {
        ...base,
        seq: 0,
        type: "started",
        target: { kind: "local", model_id: "m" },
        plan: { prompt_lengths: [128], batch_sizes: [], generated_tokens: 128, batch_prompt_tokens: 512 },
        total_steps: 2,
      },
      0,
    );
    run = applyPerfEvent(
      run,
      {
        ...base,
        seq: 1,
        type: "test_started",
        step: 1,
        total_steps: 2,
        kind: "single",
        prompt_tokens: 128,
        batch_size: null,
      },
      1000,
    );
    expect(run).toMatchObject({ status: "running", step: "128 tok", completed: 0, total: 2 });
    run = applyPerfEvent(
      run,
      {
        ...base,
        seq: 2,
        type: "test_skipped",
        step: 1,
        total_steps: 2,
        skipped: { kind: "single", prompt_tokens: 128, batch_size: null, reason: "x" },
      },
      2000,
    );
    expect(run).toMatchObject({ completed: 1, etaSeconds: 2 });
    run = applyPerfEvent(
      run,
      { ...base, seq: 3, type: "completed", result: performanceResult({ result_id: "perf-9" }) },
      3000,
    );
    expect(run).toMatchObject({ status: "completed", completed: 2, resultIds: ["perf-9"] });
  });
});

describe("upload preview", () => {
  it("lists every nested field of the payload", () => {
    const rows = flattenPayload({
      hardware: { chip: "M2", gpu_cores: null },
      results: { single: [{ pp_tps: 1 }], batch: [] },
    });
    expect(rows).toEqual([
      ["hardware.chip", "M2"],
      ["hardware.gpu_cores", "—"],
      ["results.single", "1 ×"],
      ["results.single[0].pp_tps", "1"],
      ["results.batch", "[]"],
    ]);
  });
});

describe("cutOffKey (a reply that stopped at length)", () => {
  const reply = (completion: number) => ({
    id: "m1",
    role: "assistant" as const,
    content: "…",
    created_at: "2026-12-04T00:00:00.000Z",
    finish_reason: "length" as const,
    stats: {
      ttft_ms: 1,
      generation_tokens_per_second: 1,
      prompt_tokens: 361,
      completion_tokens: completion,
      total_ms: 1,
    },
  });
  it("says the token limit when it reached the conversation's Max tokens", () => {
    expect(cutOffKey(reply(24), 24)).toBe("chat.truncated");
  });
  it("says the context was full when no limit was set, or it stopped short of it", () => {
    expect(cutOffKey(reply(3735), undefined)).toBe("chat.contextFull");
    expect(cutOffKey(reply(100), 4096)).toBe("chat.contextFull");
  });
});
