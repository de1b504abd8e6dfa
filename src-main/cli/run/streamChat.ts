import { readSseMessages } from "../../../src-shared/contracts/readSseMessages.js";
import { errorCodeSchema } from "../../../src-shared/contracts/errors.js";
import { PerchError } from "../../base/PerchError.js";
import { errorMessage } from "../../base/describeError.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatEndpoint {
  url: string;
  headers: Record<string, string>;
}

export interface ChatReply {
  text: string;
  reasoning: string;
  /** The user stopped it (`signal` aborted). */
  stopped: boolean;
  /** Cut by the server at the token limit (`finish_reason: "length"`): the context was full. */
  cut: boolean;
}

/**
 * Streams one chat completion from `/v1/chat/completions`: `onText` and `onReasoning` get the
 * pieces as they come. Aborting `signal` stops the reply (the server cancels the generation);
 * resolves with the text and reasoning received either way.
 */
export async function streamChat(
  endpoint: ChatEndpoint,
  body: { model: string; messages: ChatMessage[]; response_format?: unknown },
  handlers: { onText(text: string): void; onReasoning(text: string): void },
  signal: AbortSignal,
): Promise<ChatReply> {
  let text = "";
  let reasoning = "";
  let cut = false;
  let response: Response;
  try {
    response = await fetch(`${endpoint.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...endpoint.headers, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ ...body, stream: true }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { text, reasoning, stopped: true, cut };
    throw new PerchError(
      "upstream_error",
      `The server at ${endpoint.url} did not answer: ${errorMessage(error)}`,
    );
  }
  if (!response.ok || !response.body) throw await toError(response);
  try {
    for await (const message of readSseMessages(response.body)) {
      if (message.data === "[DONE]") continue;
      const data = JSON.parse(message.data) as {
        error?: { code?: string; message?: string };
        choices?: {
          delta?: { content?: string; reasoning_content?: string };
          finish_reason?: string | null;
        }[];
      };
      if (data.error) {
        const code = errorCodeSchema.catch("generation_failed").parse(data.error.code);
        throw new PerchError(code, data.error.message ?? "The generation failed.");
      }
      if (data.choices?.[0]?.finish_reason === "length") cut = true;
      const delta = data.choices?.[0]?.delta;
      if (delta?.reasoning_content) {
        reasoning += delta.reasoning_content;
        handlers.onReasoning(delta.reasoning_content);
      }
      if (delta?.content) {
        text += delta.content;
        handlers.onText(delta.content);
      }
    }
  } catch (error) {
    if (signal.aborted) return { text, reasoning, stopped: true, cut };
    throw error;
  }
  return { text, reasoning, stopped: false, cut };
}

async function toError(response: Response): Promise<PerchError> {
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string; details?: unknown };
  } | null;
  const code = errorCodeSchema.catch("internal_error").parse(body?.error?.code);
  // The details stay: a `context_length_exceeded` says how many tokens the prompt and context hold.
  return new PerchError(code, body?.error?.message ?? `The server answered HTTP ${response.status}.`, {
    status: response.status,
    details: body?.error?.details,
  });
}
