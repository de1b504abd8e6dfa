import { z } from "zod";
import { multipleChoiceItem, type MultipleChoiceAdapter } from "./MultipleChoiceItem.js";

const rowSchema = z.object({
  question_id: z.number().int(),
  question: z.string(),
  options: z.array(z.string()),
  answer_index: z.number().int(),
  category: z.string(),
});

/** MMLU-Pro (`TIGER-Lab/MMLU-Pro` test, 12032 questions, up to 10 options, 14 categories). */
export const mmluProAdapter: MultipleChoiceAdapter = {
  name: "mmlu_pro",
  variant: "test",
  toItem(row) {
    const parsed = rowSchema.parse(row);
    return multipleChoiceItem({
      id: String(parsed.question_id),
      category: parsed.category,
      instruction: `The following is a multiple choice question about ${parsed.category}.`,
      question: parsed.question.trim(),
      choices: parsed.options,
      answerIndex: parsed.answer_index,
    });
  },
};
