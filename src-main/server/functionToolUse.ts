import { PerchError } from "../base/PerchError.js";
import type { ToolChoice, ToolUse } from "../tools/ToolDefinition.js";

/** A tool in OpenAI's `{type: "function", function: {…}}` shape, which Ollama's API copies. */
export interface FunctionTool {
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** OpenAI's `tool_choice` (Perch accepts it on Ollama's `/api/chat` too). */
export type FunctionToolChoice = "auto" | "none" | "required" | { function: { name: string } } | null;

/**
 * Function tools and a tool choice in the scheduler's neutral shape, for the API faces that share
 * OpenAI's format. No tools: undefined, and a choice that would need one is a 400 naming it.
 */
export function functionToolUse(
  tools: readonly FunctionTool[] | null | undefined,
  choice: FunctionToolChoice | undefined,
  parallel: boolean,
): ToolUse | undefined {
  if (!tools || tools.length === 0) {
    if (choice && choice !== "none" && choice !== "auto") {
      throw new PerchError("invalid_request", "tool_choice needs tools to choose from.", {
        param: "tool_choice",
      });
    }
    return undefined;
  }
  return {
    tools: tools.map((tool) => ({
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      ...(tool.function.parameters ? { parameters: tool.function.parameters } : {}),
    })),
    choice: toolChoiceOf(choice),
    parallel,
    idPrefix: "call_",
  };
}

function toolChoiceOf(choice: FunctionToolChoice | undefined): ToolChoice {
  if (choice === undefined || choice === null || choice === "auto") return { kind: "auto" };
  if (choice === "none" || choice === "required") return { kind: choice };
  return { kind: "function", name: choice.function.name };
}
