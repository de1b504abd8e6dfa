import { describe, expect, it } from "vitest";
import { replyFailureKey } from "../../../src-renderer/chat/replyFailureKey.js";
import { createI18n } from "../../../src-renderer/i18n/createI18n.js";

describe("a reply that did not fit the context", () => {
  it.each(["en", "de", "ja"] as const)(
    "says by how much, and that the message may be what is too long (%s)",
    (locale) => {
      const i18n = createI18n(locale);
      const message = "The prompt is 27013 tokens; the context of 'm' holds 4096.";
      const text = i18n.t(replyFailureKey("context_length_exceeded"), { message });
      expect(text).toContain(message);
    },
  );
});
