import { z } from "zod";
import { multipleChoiceItem, type MultipleChoiceAdapter } from "./MultipleChoiceItem.js";

const rowSchema = z.object({
  question: z.string(),
  subject: z.string(),
  choices: z.array(z.string()),
  answer: z.number().int(),
});

/** MMLU (`cais/mmlu`, `all` test, 14042 questions in 57 subjects); no ids, so the row number. */
export const mmluAdapter: MultipleChoiceAdapter = {
  name: "mmlu",
  variant: "test",
  toItem(row, index) {
    const parsed = rowSchema.parse(row);
    const subject = parsed.subject.replace(/_/g, " ");
    return multipleChoiceItem({
      id: String(index),
      category: parsed.subject,
      instruction: `The following is a multiple choice question about ${subject}.`,
      question: parsed.question.trim(),
      choices: parsed.choices,
      answerIndex: parsed.answer,
    });
  },
};
