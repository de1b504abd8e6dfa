import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { conversationSchema } from "../../../src-shared/contracts/chat.js";
import { MessageList } from "../../../src-renderer/chat/MessageList.js";
import { renderWithStore } from "./renderWithStore.js";
import { modelRow } from "./fixtures.js";

const at = "2026-03-01T10:00:00.000Z";
const conversation = conversationSchema.parse({
  version: 1,
  id: "c1",
  title: "hello",
  created_at: at,
  updated_at: at,
  model_id: "gone-model",
  system_prompt: "",
  sampling: {},
  thinking: null,
  json_schema: null,
  messages: [
    { id: "u1", role: "user", content: "hello", created_at: at },
    { id: "a1", role: "assistant", content: "Hi there", created_at: at, model_id: "gone-model" },
  ],
});

function render(models: ReturnType<typeof modelRow>[]): string {
  return renderWithStore(createElement(MessageList), { conversation, models });
}
const button = (html: string, testId: string) =>
  new RegExp(`<button[^>]*data-testid="${testId}"[^>]*>`).exec(html)![0];

describe("a conversation's message actions", () => {
  it("turns Regenerate off, saying why, when the conversation's model was deleted (as Send is)", () => {
    for (const models of [[modelRow({ id: "gone-model", missing: true })], [modelRow({ id: "other" })]]) {
      const html = render(models);
      const regenerate = button(html, "chat-regenerate");
      expect(regenerate).toContain("disabled");
      expect(regenerate).toContain("not available any more");
    }
  });

  it("keeps Regenerate on while the model is present", () => {
    expect(button(render([modelRow({ id: "gone-model" })]), "chat-regenerate")).not.toContain("disabled");
  });
});
