import { describe, expect, it } from "vitest";
import { parseWith } from "../../../src-main/base/parseWith.js";
import { anthropicMessagesRequestSchema } from "../../../src-shared/contracts/anthropic.js";
import {
  chatCompletionRequestSchema,
  completionRequestSchema,
} from "../../../src-shared/contracts/openai.js";

const messageOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("parsed");
};

describe("a request for something a local text model cannot do says so", () => {
  it.each([
    [{ type: "image_url", image_url: { url: "data:image/png;base64,AA" } }],
    [
      { type: "text", text: "a" },
      { type: "input_audio", input_audio: { data: "AA", format: "wav" } },
    ],
    [{ type: "file", file: { file_id: "f" } }],
  ])("OpenAI content parts %j", (...parts) => {
    const message = messageOf(() =>
      parseWith(chatCompletionRequestSchema, { model: "m", messages: [{ role: "user", content: parts }] }),
    );
    expect(message).toContain("messages.0.content");
    expect(message).toMatch(/not supported/);
  });

  it.each(["web_search_20250305", "bash_20250124", "code_execution_20250522"])(
    "Anthropic tool %s",
    (type) => {
      const message = messageOf(() =>
        parseWith(anthropicMessagesRequestSchema, {
          model: "m",
          max_tokens: 5,
          messages: [{ role: "user", content: "x" }],
          tools: [{ type, name: "t" }],
        }),
      );
      expect(message).toContain("tools.0");
      expect(message).toMatch(/server tools .* do not run locally/);
    },
  );

  it("best_of above 1 says it is not offered and what to do (was 'expected 1')", () => {
    const message = messageOf(() =>
      parseWith(completionRequestSchema, { model: "m", prompt: "x", best_of: 3 }),
    );
    expect(message).toContain("best_of");
    expect(message).toContain("not offered");
  });
});
