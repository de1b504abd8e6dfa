import type { BenchmarkName } from "../../../../src-shared/contracts/accuracy.js";
import type { BenchmarkItem } from "../Benchmark.js";
import { choiceLetters } from "../text/extractChoiceLetter.js";

export interface MultipleChoiceItem extends BenchmarkItem {
  /** The line that frames the question ("The following is a question about astronomy."). */
  instruction: string;
  question: string;
  /** Options in the order shown, lettered A, B, ... */
  choices: string[];
  /** Index of the correct option in `choices`; `expected` is its letter. */
  answerIndex: number;
}

/** The multiple-choice suites: one generic benchmark, one small adapter each. */
export type MultipleChoiceBenchmarkName = Extract<
  BenchmarkName,
  "mmlu" | "mmlu_pro" | "arc_challenge" | "hellaswag" | "truthfulqa_mc1" | "winogrande"
>;

/** Turns one suite's dataset rows into items. */
export interface MultipleChoiceAdapter {
  readonly name: MultipleChoiceBenchmarkName;
  /** The Hub variant its rows come from (the split the suite is scored on). */
  readonly variant: string;
  toItem(row: unknown, index: number): MultipleChoiceItem;
}

/** Builds an item; `expected` is the letter of the correct option. */
export function multipleChoiceItem(fields: Omit<MultipleChoiceItem, "expected">): MultipleChoiceItem {
  return { ...fields, expected: choiceLetters[fields.answerIndex] };
}
