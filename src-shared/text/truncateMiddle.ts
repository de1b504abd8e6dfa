/**
 * Cuts a long diagnostic (test output, a traceback) to at most `limit` characters, keeping its
 * head and, longer, its tail (a traceback ends with the exception), with an explicit marker saying
 * how much was left out, so a reader never mistakes a cut text for the whole.
 */
export function truncateMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  // The marker's length depends on the count it names; size it for the largest count first.
  const marker = (omitted: number) => `\n… truncated ${omitted} characters …\n`;
  const kept = Math.max(0, limit - marker(text.length).length);
  const head = Math.floor(kept / 3);
  const tail = kept - head;
  return `${text.slice(0, head)}${marker(text.length - head - tail)}${tail > 0 ? text.slice(-tail) : ""}`;
}
