import {
  ChatMLChatWrapper,
  FunctionaryChatWrapper,
  HarmonyChatWrapper,
  JinjaTemplateChatWrapper,
  Llama3_1ChatWrapper,
  QwenChatWrapper,
  type ChatWrapper,
} from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { forceToolCall } from "../../../src-main/tools/forceToolCall.js";
import { planToolCalling, toChatModelFunctions } from "../../../src-main/tools/planToolCalling.js";
import { ChatHistoryError, toChatHistory } from "../../../src-main/tools/toChatHistory.js";
import type { ConversationMessage } from "../../../src-main/tools/ConversationMessage.js";

const conversation: ConversationMessage[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Rome and Oslo?" },
  {
    role: "assistant",
    content: "",
    toolCalls: [
      { id: "call_1", name: "get_weather", arguments: { city: "Rome" } },
      { id: "call_2", name: "get_weather", arguments: { city: "Oslo" } },
    ],
  },
  { role: "tool", toolCallId: "call_2", content: '{"temperature": 4}' },
  { role: "tool", toolCallId: "call_1", content: "sunny, 21 degrees" },
];
const tools = [
  {
    name: "get_weather",
    description: "Weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

describe("toChatHistory", () => {
  it("attaches each tool result to the call it answers, inside the model response that made the calls", () => {
    const history = toChatHistory(conversation);
    expect(history.map((item) => item.type)).toEqual(["system", "user", "model"]);
    const model = history[2];
    if (model?.type !== "model") throw new Error("expected a model response");
    expect(model.response).toEqual([
      expect.objectContaining({
        type: "functionCall",
        name: "get_weather",
        params: { city: "Rome" },
        result: "sunny, 21 degrees",
      }),
      expect.objectContaining({
        type: "functionCall",
        name: "get_weather",
        params: { city: "Oslo" },
        result: { temperature: 4 },
      }),
    ]);
  });

  it("renders calls and results in the model's own format (Qwen: <tool_call>/<tool_response>, Llama 3.1: ipython)", () => {
    const history = toChatHistory(conversation);
    const functions = toChatModelFunctions(tools);
    const qwen = new QwenChatWrapper()
      .generateContextState({
        chatHistory: history,
        availableFunctions: functions,
        documentFunctionParams: true,
      })
      .contextText.toString();
    expect(qwen).toContain("<tool_call>");
    expect(qwen).toContain('"name": "get_weather"');
    expect(qwen).toContain("<tool_response>");
    expect(qwen).toContain("sunny, 21 degrees");
    expect(qwen).not.toMatch(/user\n[^<]*sunny/);
    const llama = new Llama3_1ChatWrapper()
      .generateContextState({
        chatHistory: history,
        availableFunctions: functions,
        documentFunctionParams: true,
      })
      .contextText.toString();
    expect(llama).toContain("<|start_header_id|>ipython<|end_header_id|>");
    expect(llama).toContain('{"temperature": 4}');
  });

  it("continues the response after the results: the model's next text joins the same model item", () => {
    const history = toChatHistory([
      ...conversation,
      { role: "assistant", content: "Rome is sunny." },
      { role: "user", content: "Thanks" },
    ]);
    expect(history.map((item) => item.type)).toEqual(["system", "user", "model", "user", "model"]);
    const model = history[2];
    if (model?.type !== "model") throw new Error("expected a model response");
    expect(model.response.at(-1)).toBe("Rome is sunny.");
  });

  it("refuses a tool message that answers no call, and a call left unanswered, naming the message", () => {
    expect(() =>
      toChatHistory([
        { role: "user", content: "x" },
        { role: "tool", toolCallId: "call_x", content: "1" },
      ]),
    ).toThrow(ChatHistoryError);
    try {
      toChatHistory([conversation[1]!, conversation[2]!, { role: "user", content: "next" }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ChatHistoryError);
      expect((error as ChatHistoryError).messageIndex).toBe(2);
      // The tool's name and the message that made the call (an Ollama client never saw the id).
      expect((error as ChatHistoryError).message).toMatch(/tool 'get_weather' in message 1/);
    }
  });

  it("gives a call whose arguments are not JSON back as its text, not as a quoted JSON string", () => {
    const cut = '{"city":"Pa';
    const messages: ConversationMessage[] = [
      { role: "user", content: "Weather in Paris?" },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: undefined, unparsedArguments: cut }],
      },
      { role: "tool", toolCallId: "call_1", content: "sunny" },
    ];
    // A template as Qwen's and Hermes' print arguments: as they are when a string, else as JSON.
    const jinja = new JinjaTemplateChatWrapper({
      template:
        "{% for m in messages %}<|im_start|>{{ m.role }}\n{% if m.content %}{{ m.content }}{% endif %}" +
        "{% for c in m.tool_calls or [] %}<tool_call>{{ c.function.name }} " +
        "{% if c.function.arguments is string %}{{ c.function.arguments }}{% else %}{{ c.function.arguments | tojson }}{% endif %}" +
        "</tool_call>{% endfor %}<|im_end|>\n{% endfor %}<|im_start|>assistant\n",
    });
    const wrappers: [string, ChatWrapper][] = [
      ["ChatML", new ChatMLChatWrapper()],
      ["Qwen", new QwenChatWrapper()],
      ["Llama 3.1", new Llama3_1ChatWrapper()],
      ["Harmony", new HarmonyChatWrapper()],
      ["Functionary", new FunctionaryChatWrapper()],
      ["Jinja", jinja],
    ];
    for (const [name, wrapper] of wrappers) {
      const text = wrapper
        .generateContextState({
          chatHistory: toChatHistory(messages, wrapper),
          availableFunctions: toChatModelFunctions(tools),
          documentFunctionParams: true,
        })
        .contextText.toString();
      expect(text, name).toContain(cut);
      expect(text, name).not.toContain(JSON.stringify(cut));
      expect(text, name).toContain("sunny");
    }
  });

  it("refuses two calls with one id (the second silently replaced the first, left with no result)", () => {
    const call = { id: "call_1", name: "get_weather", arguments: { city: "Rome" } };
    expect(() =>
      toChatHistory([
        { role: "user", content: "x" },
        { role: "assistant", content: "", toolCalls: [call, { ...call, arguments: { city: "Oslo" } }] },
        { role: "tool", toolCallId: "call_1", content: "sunny" },
      ]),
    ).toThrow(/Two tool calls in message 1 have the id 'call_1'/);
  });
});

describe("planToolCalling", () => {
  const base = new ChatMLChatWrapper();
  it("offers no functions for none, every tool for auto and required, only the named one when named", () => {
    expect(planToolCalling(base, { tools, choice: { kind: "none" } }).functions).toBeUndefined();
    expect(Object.keys(planToolCalling(base, { tools, choice: { kind: "auto" } }).functions!)).toEqual([
      "get_weather",
    ]);
    const two = [...tools, { name: "get_time" }];
    const named = planToolCalling(base, { tools: two, choice: { kind: "function", name: "get_time" } });
    expect(Object.keys(named.functions!)).toEqual(["get_time"]);
    expect(
      planToolCalling(base, { tools, choice: { kind: "auto" }, parallel: false }).maxParallelFunctionCalls,
    ).toBe(1);
  });

  it("a forced call documents every tool and starts the answer in function-calling mode", () => {
    const two = toChatModelFunctions([...tools, { name: "get_time", description: "The time" }]);
    const state = forceToolCall(base, two).generateContextState({
      chatHistory: toChatHistory([{ role: "user", content: "hi" }]),
      availableFunctions: { get_time: two.get_time! },
    });
    expect(state.contextText.toString()).toContain("get_weather");
    expect(state.contextText.toString()).toContain("get_time");
    expect(state.noPrefixTrigger?.type).toBe("functionCall");
    expect(state.prefixTriggers).toBeUndefined();
  });
});

describe("forceToolCall across formats", () => {
  const functions = toChatModelFunctions(tools);
  const history = toChatHistory([{ role: "user", content: "hi" }]);

  it("gpt-oss (Harmony): injects the commentary channel its call trigger would, then forces the call", () => {
    const state = forceToolCall(new HarmonyChatWrapper(), functions).generateContextState({
      chatHistory: history,
    });
    expect(state.noPrefixTrigger?.type).toBe("functionCall");
    expect(state.noPrefixTrigger?.inject.toString()).toBe("<|channel|>commentary");
    expect(state.contextText.toString()).toContain("get_weather");
  });

  it("Functionary (starts in function mode): stays engaged with no way to disengage into text", () => {
    const state = forceToolCall(new FunctionaryChatWrapper(), functions).generateContextState({
      chatHistory: history,
    });
    expect(state.functionCall).toEqual({ initiallyEngaged: true, disengageInitiallyEngaged: [] });
  });
});
