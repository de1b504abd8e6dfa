import type { ChatMessage } from "../../../scheduler/GenerationRequest.js";
import { hubSource } from "../../datasets/hubSources.js";
import type { Benchmark } from "../Benchmark.js";
import { questionResult } from "../questionResult.js";
import { sampleItems } from "../sampleItems.js";
import { extractNumericAnswer, sameNumber } from "../text/extractNumericAnswer.js";
import { gsm8kFewShotExamples } from "./gsm8kFewShotExamples.js";
import { toGsm8kItem, type Gsm8kItem } from "./Gsm8kItem.js";

const instruction =
  "Solve the math problem step by step. End with the final answer on its own line as: The answer is <number>.";

/** Zero-shot chain of thought, or the 8 classic exemplars as prior turns. */
export function gsm8kMessages(question: string, fewShot: boolean): ChatMessage[] {
  const shots: ChatMessage[] = fewShot
    ? gsm8kFewShotExamples.flatMap((shot): ChatMessage[] => [
        { role: "user", content: `Question: ${shot.question}` },
        { role: "assistant", content: shot.answer },
      ])
    : [];
  return [
    { role: "system", content: instruction },
    ...shots,
    { role: "user", content: `Question: ${question}` },
  ];
}

/**
 * GSM8K (1319 grade-school word problems). The variant is the prompt style (`zero_shot` chain
 * of thought, or `few_shot` with the 8 exemplars); the answer is read from `#### N`,
 * `\boxed{N}`, "the answer is N", else the last number.
 */
export const gsm8kBenchmark: Benchmark<Gsm8kItem> = {
  name: "gsm8k",
  variants: ["zero_shot", "few_shot"],
  defaultVariant: "zero_shot",
  maxTokens: 1024,
  needsSandbox: false,

  async loadItems(options) {
    const variant = options.variant ?? "zero_shot";
    const rows = await options.datasets.rows(hubSource("gsm8k", variant), options.signal);
    const items = rows.map((row, index) => toGsm8kItem(row, index, variant === "few_shot"));
    return sampleItems(items, options.limit, options.seed);
  },

  buildPrompt(item) {
    return gsm8kMessages(item.question, item.fewShot);
  },

  async score(item, response, context) {
    const found = extractNumericAnswer(response.answer);
    if (found && sameNumber(found.value, item.expected)) {
      return questionResult(
        item,
        response.raw,
        { correct: true, passMode: found.rule, extracted: found.value },
        context,
      );
    }
    const error = found ? `answered ${found.value}, expected ${item.expected}` : "no number in the response";
    const verdict = {
      correct: false as const,
      failureType: "wrong_answer" as const,
      error,
      extracted: found?.value ?? null,
    };
    return questionResult(item, response.raw, verdict, context);
  },
};
