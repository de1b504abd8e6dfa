import type { Conversation } from "../contracts/chat.js";

/** A file name for the export: the title's letters and digits, then the id (always unique). */
export function conversationFileName(conversation: Conversation): string {
  const stem = conversation.title
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${stem || "conversation"}-${conversation.id}.md`;
}

/**
 * The conversation as Markdown: a heading per message, reasoning in a `<details>` block so it
 * stays folded on GitHub and in most viewers, and the reply's speed under it.
 */
export function conversationMarkdown(conversation: Conversation): string {
  const lines: string[] = [`# ${conversation.title}`, ""];
  if (conversation.model_id) lines.push(`- Model: \`${conversation.model_id}\``);
  lines.push(`- Created: ${conversation.created_at}`, "");
  if (conversation.system_prompt.trim()) {
    lines.push("## System", "", conversation.system_prompt.trim(), "");
  }
  for (const message of conversation.messages) {
    if (message.role === "user") {
      lines.push("## User", "", message.content, "");
      continue;
    }
    lines.push(`## Assistant${message.model_id ? ` (${message.model_id})` : ""}`, "");
    if (message.reasoning?.trim()) {
      lines.push("<details><summary>Reasoning</summary>", "", message.reasoning.trim(), "", "</details>", "");
    }
    if (message.content) lines.push(message.content, "");
    for (const call of message.tool_calls ?? []) {
      lines.push(`Tool call \`${call.name}\`:`, "", "```json", call.arguments, "```", "");
    }
    if (message.error) lines.push(`> Failed: ${message.error.message}`, "");
    else if (message.finish_reason === "cancelled") lines.push("> Stopped.", "");
    const stats = message.stats;
    if (stats) {
      lines.push(
        `_${stats.completion_tokens} tokens · ${stats.generation_tokens_per_second.toFixed(1)} tok/s · ` +
          `first token after ${Math.round(stats.ttft_ms)} ms_`,
        "",
      );
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
