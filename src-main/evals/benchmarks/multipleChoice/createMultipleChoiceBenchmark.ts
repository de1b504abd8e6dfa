import { hubSource } from "../../datasets/hubSources.js";
import type { Benchmark } from "../Benchmark.js";
import { questionResult } from "../questionResult.js";
import { sampleItems } from "../sampleItems.js";
import { choiceLetters, extractChoiceLetter } from "../text/extractChoiceLetter.js";
import type { MultipleChoiceAdapter, MultipleChoiceItem } from "./MultipleChoiceItem.js";

/** The question as shown to the model: framing, question, lettered options, the answer format. */
export function multipleChoicePrompt(item: MultipleChoiceItem): string {
  const options = item.choices.map((choice, index) => `${choiceLetters[index]}. ${choice}`).join("\n");
  return (
    `${item.instruction}\n\n${item.question}\n\n${options}\n\n` +
    'Answer with the letter of the correct option, e.g. "The answer is (B)".'
  );
}

/** One multiple-choice benchmark over an adapter's rows: the letter is read from the response. */
export function createMultipleChoiceBenchmark(adapter: MultipleChoiceAdapter): Benchmark<MultipleChoiceItem> {
  return {
    name: adapter.name,
    variants: [adapter.variant],
    defaultVariant: adapter.variant,
    maxTokens: 256,
    needsSandbox: false,

    async loadItems(options) {
      const source = hubSource(adapter.name, options.variant ?? adapter.variant);
      const rows = await options.datasets.rows(source, options.signal);
      return sampleItems(
        rows.map((row, index) => adapter.toItem(row, index)),
        options.limit,
        options.seed,
      );
    },

    buildPrompt(item) {
      return [{ role: "user", content: multipleChoicePrompt(item) }];
    },

    async score(item, response, context) {
      const found = extractChoiceLetter(response.answer, item.choices);
      if (found?.letter === item.expected) {
        return questionResult(
          item,
          response.raw,
          { correct: true, passMode: found.rule, extracted: found.letter },
          context,
        );
      }
      const error = found
        ? `answered ${found.letter}, expected ${item.expected}`
        : "no option letter in the response";
      const verdict = {
        correct: false as const,
        failureType: "wrong_answer" as const,
        error,
        extracted: found?.letter ?? null,
      };
      return questionResult(item, response.raw, verdict, context);
    },
  };
}
