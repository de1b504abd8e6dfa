import { hubSource } from "../../datasets/hubSources.js";
import type { Benchmark } from "../Benchmark.js";
import { noCodeVerdict } from "../noCodeVerdict.js";
import { questionResult } from "../questionResult.js";
import { requireSandbox } from "../requireSandbox.js";
import { sampleItems } from "../sampleItems.js";
import { scoreCodeCandidates } from "../scoreCodeCandidates.js";
import { mbppCandidates } from "./mbppCandidates.js";
import { toMbppItem, type MbppItem } from "./MbppItem.js";

/** MBPP: write a function from a one-line task and its first test. `full` test split (500) or `sanitized` (257). */
export const mbppBenchmark: Benchmark<MbppItem> = {
  name: "mbpp",
  variants: ["full", "sanitized"],
  defaultVariant: "full",
  maxTokens: 1024,
  needsSandbox: true,

  async loadItems(options) {
    const rows = await options.datasets.rows(hubSource("mbpp", options.variant ?? "full"), options.signal);
    return sampleItems(rows.map(toMbppItem), options.limit, options.seed);
  },

  buildPrompt(item) {
    return [
      {
        role: "user",
        content:
          `You are an expert Python programmer. Your task: ${item.text}\n\n` +
          `Your code should pass this test:\n\n${item.tests[0] ?? ""}\n\n` +
          "Reply with the code in one ```python code block.",
      },
    ];
  },

  async score(item, response, context) {
    const sandbox = requireSandbox(context, "mbpp");
    const answer = response.answer;
    const verdict =
      noCodeVerdict(answer) ??
      (await scoreCodeCandidates(await mbppCandidates(item, answer), sandbox, {
        testNames: mbppTestNames(item),
        timeoutS: context.checkTimeoutS ?? 10,
        signal: context.signal,
      }));
    return questionResult(item, response.raw, verdict, context);
  },
};

/** What the tests call that the reference solution defines (task 126's function is `sum`). */
function mbppTestNames(item: MbppItem): string[] {
  const defined = [...item.code.matchAll(/^(?:def|class)\s+([A-Za-z_]\w*)/gm)].map((match) => match[1]!);
  const used = new Set(item.tests.join("\n").match(/[A-Za-z_]\w*/g) ?? []);
  return defined.filter((name) => used.has(name));
}
