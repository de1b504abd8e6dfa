import { useTranslation } from "react-i18next";
import type { ChatToolCall } from "../../src-shared/contracts/chat.js";

/** The tools a reply called, each with its arguments (pretty JSON); Perch never runs them. */
export function ToolCallList({ calls }: { calls: ChatToolCall[] }) {
  const { t } = useTranslation();
  return (
    <ul className="chat-tool-calls" data-testid="chat-tool-calls">
      {calls.map((call) => (
        <li key={call.id} className="chat-tool-call" data-testid="chat-tool-call">
          <span className="field-label">
            {t("chat.tools.called")}: <code>{call.name}</code>
          </span>
          <pre className="mono">{prettyJson(call.arguments)}</pre>
        </li>
      ))}
    </ul>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
