import { z } from "zod";
import { PerchError } from "../../../base/PerchError.js";
import { multipleChoiceItem, type MultipleChoiceAdapter } from "./MultipleChoiceItem.js";

const rowSchema = z.object({
  id: z.string(),
  question: z.string(),
  choices: z.object({ text: z.array(z.string()), label: z.array(z.string()) }),
  answerKey: z.string(),
});

/** ARC-Challenge (`allenai/ai2_arc` test, 1172). Labels are A-E or 1-5: options are re-lettered by position. */
export const arcChallengeAdapter: MultipleChoiceAdapter = {
  name: "arc_challenge",
  variant: "test",
  toItem(row) {
    const parsed = rowSchema.parse(row);
    const answerIndex = parsed.choices.label.indexOf(parsed.answerKey);
    if (answerIndex < 0)
      throw new PerchError(
        "invalid_request",
        `ARC ${parsed.id}: answer ${parsed.answerKey} not among labels`,
      );
    return multipleChoiceItem({
      id: parsed.id,
      category: "arc_challenge",
      instruction: "The following is a grade-school science question.",
      question: parsed.question.trim(),
      choices: parsed.choices.text,
      answerIndex,
    });
  },
};
