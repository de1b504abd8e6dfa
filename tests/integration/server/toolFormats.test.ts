import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

const tool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { unit: { type: "string", enum: ["c", "f"] }, days: { type: "integer" } },
      required: ["unit", "days"],
    },
  },
};

const promptTokens = new Map<string, number>();

/** Loads the test model with another chat format (the setting applies at the next load). */
async function useFormat(format: string): Promise<void> {
  await perch.server.putModelSettings({ chat_format: format });
  const response = await fetch(
    `${perch.server.url}/admin/api/models/${encodeURIComponent(perch.server.mainModelId)}/unload`,
    {
      method: "POST",
    },
  );
  expect(response.status).toBe(200);
}

// The generated model has none of these formats' special tokens, so their markup is plain text to
// it; the call path through each format's function-calling syntax is what is exercised.
describe.each(["qwen", "llama3.1", "mistral", "harmony", "functionary"])(
  "tool calls in the %s format",
  (format) => {
    it("forces a valid call and takes its result back for the next turn", async () => {
      await useFormat(format);
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather?" }];
      const first = await perch.openai.chat.completions.create({
        model: perch.server.mainModelId,
        messages,
        tools: [tool],
        tool_choice: "required",
        parallel_tool_calls: false,
        max_tokens: 60,
        temperature: 0,
      });
      promptTokens.set(format, first.usage!.prompt_tokens);
      expect(first.choices[0]!.finish_reason).toBe("tool_calls");
      const call = first.choices[0]!.message.tool_calls![0]!;
      if (call.type !== "function") throw new Error("not a function call");
      const args = JSON.parse(call.function.arguments) as { unit: unknown; days: unknown };
      expect(["c", "f"]).toContain(args.unit);
      expect(Number.isInteger(args.days)).toBe(true);
      messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "sunny" });
      const second = await perch.openai.chat.completions.create({
        model: perch.server.mainModelId,
        messages,
        tools: [tool],
        tool_choice: "none",
        max_tokens: 3,
        temperature: 0,
      });
      expect(["stop", "length"]).toContain(second.choices[0]!.finish_reason);
    });
  },
);

describe("the formats", () => {
  it("each rendered its own prompt (the format switch took effect)", () => {
    expect(promptTokens.size).toBe(5);
    expect(new Set(promptTokens.values()).size).toBe(5);
  });
});
