import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { conversationSchema } from "../../../src-shared/contracts/chat.js";
import { MessageList } from "../../../src-renderer/chat/MessageList.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";
import { StoreProvider } from "../../../src-renderer/store/StoreContext.js";
import { storeWith } from "./fakeClient.js";
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
  const { store } = storeWith({});
  store.setState({ conversation, models });
  // A server render reads zustand's initial state (getServerSnapshot): it is the state set here.
  store.getInitialState = store.getState;
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n: createI18n("en") },
      createElement(StoreProvider, { store, children: createElement(MessageList) }),
    ),
  );
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
