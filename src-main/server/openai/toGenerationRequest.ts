import crypto from "node:crypto";
import type { z } from "zod";
import type {
  ChatCompletionRequest,
  CompletionRequest,
  openAiContentSchema,
} from "../../../src-shared/contracts/openai.js";
import { PerchError } from "../../base/PerchError.js";
import type { ConversationMessage, GenerationRequest } from "../../scheduler/GenerationRequest.js";
import { requestSeed } from "../../scheduler/resolveSampling.js";
import { unenforcedSchemaPaths } from "../../tools/toFunctionSchema.js";
import type { ToolCall, ToolUse } from "../../tools/ToolDefinition.js";
import { functionToolUse } from "../functionToolUse.js";

type Content = z.infer<typeof openAiContentSchema> | null | undefined;

export function contentToText(content: Content): string {
  if (content == null) return "";
  return typeof content === "string" ? content : content.map((part) => part.text).join("");
}

function stopList(stop: string | string[] | null | undefined): string[] | undefined {
  if (stop == null) return undefined;
  return typeof stop === "string" ? [stop] : stop;
}

function samplingOf(body: ChatCompletionRequest | CompletionRequest): GenerationRequest["sampling"] {
  return {
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    topK: body.top_k ?? undefined,
    minP: body.min_p ?? undefined,
    seed: requestSeed(body.seed),
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    repeatPenalty: body.repetition_penalty ?? body.repeat_penalty ?? undefined,
  };
}

/**
 * A history call's arguments: parsed when they are JSON; otherwise kept as the text they are
 * (OpenAI takes them as an opaque string, and Perch itself answers a call `max_tokens` cut mid-JSON),
 * which the prompt shows as written.
 */
function historyArguments(text: string): Pick<ToolCall, "arguments" | "unparsedArguments"> {
  if (text.trim() === "") return { arguments: {} };
  try {
    return { arguments: JSON.parse(text) as unknown };
  } catch {
    return { arguments: undefined, unparsedArguments: text };
  }
}

/** Id of a legacy `function_call` (legacy calls have none; a `function` message answers the latest). */
const legacyCallId = (index: number) => `legacy_call_${index}`;

/** OpenAI messages in the scheduler's shape: developer → system; tool calls and results kept as such. */
function toConversation(body: ChatCompletionRequest): ConversationMessage[] {
  let latestLegacyCall: string | undefined;
  return body.messages.map((message, index): ConversationMessage => {
    const content = contentToText(message.content);
    switch (message.role) {
      case "function":
        if (!latestLegacyCall) {
          throw new PerchError(
            "invalid_request",
            "A function message needs an assistant function_call before it.",
            {
              param: `messages.${index}`,
            },
          );
        }
        return { role: "tool", toolCallId: latestLegacyCall, content };
      case "developer":
      case "system":
        return { role: "system", content };
      case "user":
        return { role: "user", content };
      case "assistant":
        if (message.function_call) {
          latestLegacyCall = legacyCallId(index);
          return {
            role: "assistant",
            content,
            toolCalls: [
              {
                id: latestLegacyCall,
                name: message.function_call.name,
                ...historyArguments(message.function_call.arguments),
              },
            ],
          };
        }
        return {
          role: "assistant",
          content,
          ...(message.tool_calls?.length
            ? {
                toolCalls: message.tool_calls.map((call) => ({
                  id: call.id,
                  name: call.function.name,
                  ...historyArguments(call.function.arguments),
                })),
              }
            : {}),
        };
      case "tool":
        if (!message.tool_call_id) {
          throw new PerchError("invalid_request", "A tool message needs the 'tool_call_id' it answers.", {
            param: `messages.${index}.tool_call_id`,
          });
        }
        return { role: "tool", toolCallId: message.tool_call_id, content };
      default:
        message.role satisfies never;
        throw new PerchError("invalid_request", "Unknown message role.", { param: `messages.${index}.role` });
    }
  });
}

/** Legacy `functions`: tools with one call per turn. */
function legacyToolUse(body: ChatCompletionRequest): ToolUse | undefined {
  const functions = body.functions ?? [];
  const choice = body.function_call;
  if (functions.length === 0) {
    if (choice && choice !== "none" && choice !== "auto") {
      throw new PerchError("invalid_request", "function_call needs functions to choose from.", {
        param: "function_call",
      });
    }
    return undefined;
  }
  return {
    tools: functions.map((fn) => ({
      name: fn.name,
      ...(fn.description ? { description: fn.description } : {}),
      ...(fn.parameters ? { parameters: fn.parameters } : {}),
    })),
    choice:
      choice === "none"
        ? { kind: "none" }
        : choice && typeof choice === "object"
          ? { kind: "function", name: choice.name }
          : { kind: "auto" },
    parallel: false,
    idPrefix: "call_",
    fields: { tools: "functions", choice: "function_call" },
  };
}

/** The request's tools in the scheduler's neutral shape (OpenAI's default choice with tools is `auto`). */
export function toolUseOf(body: ChatCompletionRequest): ToolUse | undefined {
  if (body.functions?.length || body.function_call) return legacyToolUse(body);
  return functionToolUse(body.tools, body.tool_choice, body.parallel_tool_calls ?? true);
}

/**
 * Schema keywords of the tools and of `response_format` that the grammar cannot enforce
 * (`minimum`, `pattern`...), as request paths for `x-perch-ignored-fields`. A schema that cannot
 * be read at all is refused later, when the model's grammar is built.
 */
export function unenforcedSchemaFields(body: ChatCompletionRequest): string[] {
  const schemas = [
    ...(body.tools ?? []).map((tool, index) => ({
      parameters: tool.function.parameters,
      at: `tools[${index}].function.parameters`,
    })),
    ...(body.functions ?? []).map((fn, index) => ({
      parameters: fn.parameters,
      at: `functions[${index}].parameters`,
    })),
  ];
  const format = body.response_format;
  if (format?.type === "json_schema" && format.json_schema.schema)
    schemas.push({ parameters: format.json_schema.schema, at: "response_format.json_schema.schema" });
  return schemas.flatMap(({ parameters, at }) => (parameters ? unenforcedSchemaPaths(parameters, at) : []));
}

/** OpenAI `logit_bias` (token id strings → bias) as the scheduler's map. */
function logitBiasOf(bias: Record<string, number> | null | undefined): Record<number, number> | undefined {
  if (!bias) return undefined;
  const result: Record<number, number> = {};
  for (const [key, value] of Object.entries(bias)) {
    if (!/^\d+$/.test(key)) {
      throw new PerchError(
        "invalid_request",
        `logit_bias keys are token ids; '${key.slice(0, 40)}' is not one.`,
        {
          param: "logit_bias",
        },
      );
    }
    result[Number(key)] = value;
  }
  return result;
}

/** Maps an OpenAI chat request onto the scheduler's request. */
export function chatToGenerationRequest(body: ChatCompletionRequest): GenerationRequest {
  const messages = toConversation(body);
  const format = body.response_format;
  const tools = toolUseOf(body);
  const logitBias = logitBiasOf(body.logit_bias);
  return {
    ...(tools ? { tools } : {}),
    ...(logitBias ? { logitBias } : {}),
    ...(body.logprobs ? { logprobs: { top: body.top_logprobs ?? 0 } } : {}),
    requestId: `chatcmpl-${crypto.randomUUID()}`,
    modelId: body.model,
    prompt: { kind: "chat", messages },
    sampling: samplingOf(body),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    ...(body.ignore_eos ? { ignoreEos: true } : {}),
    thinking: thinkingSwitch(body),
    stop: stopList(body.stop),
    constraint:
      format?.type === "json_object"
        ? { kind: "json_object" }
        : format?.type === "json_schema"
          ? format.json_schema.schema
            ? { kind: "json_schema", schema: format.json_schema.schema, param: "response_format" }
            : { kind: "json_object" }
          : undefined,
  };
}

/** `chat_template_kwargs.enable_thinking` (a boolean) wins over `reasoning_effort`; neither: the model decides. */
function thinkingSwitch(body: ChatCompletionRequest): boolean | undefined {
  const enable = body.chat_template_kwargs?.enable_thinking;
  if (typeof enable === "boolean") return enable;
  if (body.reasoning_effort) return body.reasoning_effort !== "none";
  return undefined;
}

/** A `/v1/completions` prompt: text, or token ids. */
export type CompletionPrompt = { text: string } | { tokens: number[] };

/** The prompts of a `/v1/completions` request, in order (one, or the list it sent). */
export function completionPrompts(body: CompletionRequest): CompletionPrompt[] {
  const { prompt } = body;
  if (typeof prompt === "string") return [{ text: prompt }];
  if (prompt.every((item): item is number => typeof item === "number")) return [{ tokens: prompt }];
  return (prompt as (string | number[])[]).map((item) =>
    typeof item === "string" ? { text: item } : { tokens: item },
  );
}

/** One prompt of a `/v1/completions` request (the first by default) as the scheduler's request. */
export function completionToGenerationRequest(
  body: CompletionRequest,
  prompt: CompletionPrompt = completionPrompts(body)[0]!,
): GenerationRequest {
  return {
    requestId: `cmpl-${crypto.randomUUID()}`,
    modelId: body.model,
    // A non-empty suffix asks for fill-in-the-middle (refused on a model without FIM tokens).
    prompt: {
      kind: "text",
      ...("text" in prompt ? { text: prompt.text } : { text: "", tokens: prompt.tokens }),
      ...(body.suffix ? { suffix: body.suffix } : {}),
    },
    sampling: samplingOf(body),
    ...(body.logit_bias ? { logitBias: logitBiasOf(body.logit_bias) } : {}),
    ...(typeof body.logprobs === "number" ? { logprobs: { top: body.logprobs } } : {}),
    maxTokens: body.max_tokens ?? undefined,
    ...(body.ignore_eos ? { ignoreEos: true } : {}),
    stop: stopList(body.stop),
  };
}
