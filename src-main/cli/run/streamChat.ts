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
): Promise<{ text: string; reasoning: string; stopped: boolean }> {
  let text = "";
  let reasoning = "";
  let response: Response;
  try {
    response = await fetch(`${endpoint.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...endpoint.headers, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ ...body, stream: true }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) return { text, reasoning, stopped: true };
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
        choices?: { delta?: { content?: string; reasoning_content?: string } }[];
      };
      if (data.error) {
        const code = errorCodeSchema.catch("generation_failed").parse(data.error.code);
        throw new PerchError(code, data.error.message ?? "The generation failed.");
      }
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
    if (signal.aborted) return { text, reasoning, stopped: true };
    throw error;
  }
  return { text, reasoning, stopped: false };
}

async function toError(response: Response): Promise<PerchError> {
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  const code = errorCodeSchema.catch("internal_error").parse(body?.error?.code);
  return new PerchError(code, body?.error?.message ?? `The server answered HTTP ${response.status}.`);
}
