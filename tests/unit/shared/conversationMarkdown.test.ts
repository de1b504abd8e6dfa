import { describe, expect, it } from "vitest";
import type { Conversation } from "../../../src-shared/contracts/chat.js";
import { conversationMarkdown } from "../../../src-shared/export/conversationMarkdown.js";

const at = "2026-12-01T12:00:00.000Z";
const conversation: Conversation = {
  version: 1,
  id: "c1",
  title: "Weather",
  created_at: at,
  updated_at: at,
  model_id: "m",
  system_prompt: "",
  sampling: {},
  thinking: null,
  json_schema: null,
  tools: "[]",
  tool_choice: "required",
  messages: [
    { id: "u1", role: "user", content: "Weather in Oslo?", created_at: at },
    {
      id: "a1",
      role: "assistant",
      content: "",
      created_at: at,
      finish_reason: "tool_calls",
      tool_calls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' }],
    },
  ],
};

describe("conversationMarkdown", () => {
  it("writes each tool call the reply made, with its arguments as a JSON block", () => {
    const markdown = conversationMarkdown(conversation);
    expect(markdown).toContain('## Assistant\n\nTool call `get_weather`:\n\n```json\n{"city":"Oslo"}\n```\n');
  });
});
