import crypto from "node:crypto";
import type { z } from "zod";
import type {
  ChatCompletionRequest,
  CompletionRequest,
  openAiContentSchema,
} from "../../../src-shared/contracts/openai.js";
import type { ChatMessage, GenerationRequest } from "../../scheduler/GenerationRequest.js";

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
    seed: body.seed ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    repeatPenalty: body.repetition_penalty ?? body.repeat_penalty ?? undefined,
  };
}

/** Maps an OpenAI chat request onto the scheduler's request (developer → system, tool → user). */
export function chatToGenerationRequest(body: ChatCompletionRequest): GenerationRequest {
  const messages: ChatMessage[] = body.messages.map((message) => ({
    role: message.role === "developer" ? "system" : message.role === "tool" ? "user" : message.role,
    content: contentToText(message.content),
  }));
  const format = body.response_format;
  return {
    requestId: `chatcmpl-${crypto.randomUUID()}`,
    modelId: body.model,
    prompt: { kind: "chat", messages },
    sampling: samplingOf(body),
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    thinking: thinkingSwitch(body),
    stop: stopList(body.stop),
    constraint:
      format?.type === "json_object"
        ? { kind: "json_object" }
        : format?.type === "json_schema"
          ? format.json_schema.schema
            ? { kind: "json_schema", schema: format.json_schema.schema }
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

export function completionToGenerationRequest(body: CompletionRequest): GenerationRequest {
  const prompt = typeof body.prompt === "string" ? body.prompt : body.prompt[0];
  return {
    requestId: `cmpl-${crypto.randomUUID()}`,
    modelId: body.model,
    prompt: { kind: "text", text: prompt },
    sampling: samplingOf(body),
    maxTokens: body.max_tokens ?? undefined,
    stop: stopList(body.stop),
  };
}
