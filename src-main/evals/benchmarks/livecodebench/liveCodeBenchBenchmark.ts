import { hubSource } from "../../datasets/hubSources.js";
import type { Benchmark } from "../Benchmark.js";
import { noCodeVerdict } from "../noCodeVerdict.js";
import { questionResult } from "../questionResult.js";
import { requireSandbox } from "../requireSandbox.js";
import { sampleItems } from "../sampleItems.js";
import { decodePrivateTests } from "./decodePrivateTests.js";
import { toLiveCodeBenchItem, type LiveCodeBenchItem } from "./LiveCodeBenchItem.js";
import { liveCodeBenchCandidates } from "./liveCodeBenchCandidates.js";
import { runLiveCodeBenchCandidates } from "./runLiveCodeBenchCandidates.js";

const releases = ["release_v1", "release_v2", "release_v3", "release_v4", "release_v5", "release_v6"];

function inWindow(item: LiveCodeBenchItem, since?: string, until?: string): boolean {
  const date = item.contestDate.slice(0, 10);
  return (!since || date >= since.slice(0, 10)) && (!until || date <= until.slice(0, 10));
}

/**
 * LiveCodeBench (`code_generation_lite`): stdin/stdout problems (AtCoder, Codeforces) and
 * functional LeetCode problems with starter code (the method is called on `Solution()`), public
 * then private tests, 6 s of CPU per test.
 */
export const liveCodeBenchBenchmark: Benchmark<LiveCodeBenchItem> = {
  name: "livecodebench",
  variants: releases,
  defaultVariant: "release_v6",
  maxTokens: 4096,
  needsSandbox: true,

  async loadItems(options) {
    const source = hubSource("livecodebench", options.variant ?? "release_v6");
    const rows = await options.datasets.rows(source, options.signal);
    const items = rows
      .map(toLiveCodeBenchItem)
      .filter((item) => inWindow(item, options.since, options.until));
    return sampleItems(items, options.limit, options.seed);
  },

  buildPrompt(item) {
    const format = item.starterCode.trim()
      ? "Complete this starter code and reply with the whole solution in one ```python code block:\n\n" +
        `\`\`\`python\n${item.starterCode}\n\`\`\``
      : "Read the input from standard input and write the answer to standard output. " +
        "Reply with the whole program in one ```python code block.";
    return [
      {
        role: "system",
        content:
          "You are an expert Python programmer. Write a correct and efficient solution that passes all tests.",
      },
      { role: "user", content: `### Problem\n${item.content}\n\n### Format\n${format}` },
    ];
  },

  async score(item, response, context) {
    const sandbox = requireSandbox(context, "livecodebench");
    const answer = response.answer;
    const missing = noCodeVerdict(answer);
    if (missing) return questionResult(item, response.raw, missing, context);
    const candidates = await liveCodeBenchCandidates(item, answer);
    const extracted = candidates[0]?.code ?? null;
    const privateTests = await decodePrivateTests(item.privateTests, sandbox, context.signal);
    if (typeof privateTests === "string") {
      return questionResult(
        item,
        response.raw,
        // Unreadable tests are the dataset's failure: the question is left unscored.
        { correct: false, failureType: "scoring_error", error: privateTests, extracted },
        context,
      );
    }
    const verdict = await runLiveCodeBenchCandidates(candidates, [...item.publicTests, ...privateTests], {
      sandbox,
      functionName: item.functionName,
      timeoutS: context.checkTimeoutS ?? 6,
      signal: context.signal,
    });
    return questionResult(item, response.raw, verdict, context);
  },
};
