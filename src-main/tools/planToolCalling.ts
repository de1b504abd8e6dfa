import type { ChatModelFunctions, ChatWrapper } from "node-llama-cpp";
import { forceToolCall } from "./forceToolCall.js";
import { toFunctionSchema } from "./toFunctionSchema.js";
import type { ToolDefinition, ToolUse } from "./ToolDefinition.js";

/** How one request's tools reach `LlamaChat.generateResponse`. */
export interface ToolCallingPlan {
  /** The chat format: the model's own, or one that forces a call (`required`, a named tool). */
  chatWrapper: ChatWrapper;
  /** The tools the model may call now; `undefined`: none (no tools, or `tool_choice: none`). */
  functions?: ChatModelFunctions;
  /** `1` when parallel calls are off; `undefined` leaves it to the format. */
  maxParallelFunctionCalls?: number;
}

/** node-llama-cpp function definitions, with arguments schemas in its grammar's dialect. */
export function toChatModelFunctions(tools: readonly ToolDefinition[]): ChatModelFunctions {
  const functions: Record<string, ChatModelFunctions[string]> = {};
  for (const tool of tools) {
    functions[tool.name] = {
      ...(tool.description ? { description: tool.description } : {}),
      ...(tool.parameters ? { params: toFunctionSchema(tool.parameters).schema } : {}),
    };
  }
  return functions;
}

/**
 * `auto`: the model's format with every tool offered (a call happens if the model writes the
 * format's call syntax); `none`: no tool offered; `required`: a call is forced among all tools; a
 * named function: a call of that tool is forced, while the prompt still documents every tool.
 */
export function planToolCalling(base: ChatWrapper, use: ToolUse | undefined): ToolCallingPlan {
  if (!use || use.tools.length === 0 || use.choice.kind === "none") return { chatWrapper: base };
  const all = toChatModelFunctions(use.tools);
  const maxParallelFunctionCalls = use.parallel === false ? 1 : undefined;
  switch (use.choice.kind) {
    case "auto":
      return { chatWrapper: base, functions: all, maxParallelFunctionCalls };
    case "required":
      return { chatWrapper: forceToolCall(base, all), functions: all, maxParallelFunctionCalls };
    case "function": {
      const name = use.choice.name;
      const only = all[name];
      if (!only) throw new RangeError(`No tool is named '${name}'`);
      return { chatWrapper: forceToolCall(base, all), functions: { [name]: only }, maxParallelFunctionCalls };
    }
    default:
      use.choice satisfies never;
      return { chatWrapper: base };
  }
}
