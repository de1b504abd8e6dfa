import { maxQuestionErrorLength } from "../../../src-shared/contracts/accuracy.js";

/** Cuts a diagnostic to what a per-question `error` may hold. */
export function boundedText(text: string, limit = maxQuestionErrorLength): string {
  const trimmed = text.trim();
  return trimmed.length <= limit ? trimmed : `${trimmed.slice(0, limit - 1)}…`;
}

/** The last non-empty line (a traceback's last line names the exception), bounded. */
export function lastLine(text: string): string {
  const lines = text.split("\n").filter((line) => line.trim().length > 0);
  return boundedText(lines.at(-1) ?? "");
}
