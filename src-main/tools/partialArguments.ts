/**
 * The members of a tool call's arguments that were written whole before generation was cut off
 * (`{"a": 0, "s": "unfinis` gives `{a: 0}`), for APIs whose arguments are an object (Anthropic's
 * `input`, Ollama's `arguments`); `{}` when none closed.
 */
export function partialArguments(text: string): Record<string, unknown> {
  for (let end = text.lastIndexOf(","); end > 0; end = text.lastIndexOf(",", end - 1)) {
    try {
      const value: unknown = JSON.parse(`${text.slice(0, end)}}`);
      if (value && typeof value === "object" && !Array.isArray(value))
        return value as Record<string, unknown>;
    } catch {
      // Cut inside a member: try the text before the previous comma.
    }
  }
  return {};
}
