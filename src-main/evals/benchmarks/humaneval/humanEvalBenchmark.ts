import { hubSource } from "../../datasets/hubSources.js";
import type { Benchmark } from "../Benchmark.js";
import { noCodeVerdict } from "../noCodeVerdict.js";
import { questionResult } from "../questionResult.js";
import { requireSandbox } from "../requireSandbox.js";
import { sampleItems } from "../sampleItems.js";
import { scoreCodeCandidates } from "../scoreCodeCandidates.js";
import { humanEvalCandidates } from "./humanEvalCandidates.js";
import { toHumanEvalItem, type HumanEvalItem } from "./HumanEvalItem.js";

/** HumanEval (164 problems): complete a function from its signature and docstring. */
export const humanEvalBenchmark: Benchmark<HumanEvalItem> = {
  name: "humaneval",
  variants: ["test"],
  defaultVariant: "test",
  maxTokens: 1024,
  needsSandbox: true,

  async loadItems(options) {
    const rows = await options.datasets.rows(
      hubSource("humaneval", options.variant ?? "test"),
      options.signal,
    );
    return sampleItems(rows.map(toHumanEvalItem), options.limit, options.seed);
  },

  buildPrompt(item) {
    return [
      {
        role: "user",
        content:
          "Complete the following Python function. Reply with the whole function, signature included, " +
          `in one \`\`\`python code block.\n\n\`\`\`python\n${item.prompt}\`\`\``,
      },
    ];
  },

  async score(item, response, context) {
    const sandbox = requireSandbox(context, "humaneval");
    const answer = response.answer;
    const verdict =
      noCodeVerdict(answer) ??
      (await scoreCodeCandidates(await humanEvalCandidates(item, answer), sandbox, {
        testNames: [item.entryPoint],
        timeoutS: context.checkTimeoutS ?? 10,
        signal: context.signal,
      }));
    return questionResult(item, response.raw, verdict, context);
  },
};
