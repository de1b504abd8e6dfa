import { z } from "zod";
import { multipleChoiceItem, type MultipleChoiceAdapter } from "./MultipleChoiceItem.js";

const rowSchema = z.object({
  sentence: z.string(),
  option1: z.string(),
  option2: z.string(),
  answer: z.union([z.string(), z.number()]),
});

/** WinoGrande (`allenai/winogrande` xl validation, 1267; the test split has no answers): fill the blank. */
export const winograndeAdapter: MultipleChoiceAdapter = {
  name: "winogrande",
  variant: "validation",
  toItem(row, index) {
    const parsed = rowSchema.parse(row);
    return multipleChoiceItem({
      id: String(index),
      category: "winogrande",
      instruction: "Choose the option that correctly fills the blank (_) in the sentence.",
      question: parsed.sentence.trim(),
      choices: [parsed.option1, parsed.option2],
      answerIndex: Number(parsed.answer) - 1,
    });
  },
};
