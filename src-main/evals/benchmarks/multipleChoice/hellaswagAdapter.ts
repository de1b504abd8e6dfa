import { z } from "zod";
import { multipleChoiceItem, type MultipleChoiceAdapter } from "./MultipleChoiceItem.js";

const rowSchema = z.object({
  ind: z.union([z.number(), z.string()]),
  activity_label: z.string(),
  ctx: z.string(),
  endings: z.array(z.string()),
  label: z.union([z.string(), z.number()]),
});

/** WikiHow rows carry `[title]`-style markup; the usual clean-up (as in lm-evaluation-harness). */
function clean(text: string): string {
  return text
    .trim()
    .replace(/ \[title\]/g, ". ")
    .replace(/\[.*?\]/g, "")
    .replace(/ {2}/g, " ");
}

/** HellaSwag (`Rowan/hellaswag` validation, 10042): pick the most plausible continuation. */
export const hellaswagAdapter: MultipleChoiceAdapter = {
  name: "hellaswag",
  variant: "validation",
  toItem(row) {
    const parsed = rowSchema.parse(row);
    return multipleChoiceItem({
      id: String(parsed.ind),
      category: parsed.activity_label,
      instruction: "Choose the most plausible continuation of the text.",
      question: clean(`${parsed.activity_label}: ${parsed.ctx}`),
      choices: parsed.endings.map(clean),
      answerIndex: Number(parsed.label),
    });
  },
};
