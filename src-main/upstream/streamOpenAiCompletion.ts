import { readSseMessages } from "../../src-shared/contracts/readSseMessages.js";
import { postOpenAi } from "./postOpenAi.js";

export interface StreamedCompletion {
  /** `performance.now()` when the first non-empty piece of text arrived; undefined if none did. */
  firstTextAt?: number;
  endedAt: number;
  /** Non-empty text chunks seen (a fallback count when the server sends no usage). */
  textChunks: number;
  usage?: { promptTokens: number; completionTokens: number; cachedPromptTokens: number };
}

export interface StreamRequest {
  url: string;
  apiKey?: string;
  body: Record<string, unknown>;
  signal: AbortSignal;
  fetch?: typeof fetch;
}

interface Chunk {
  choices?: { text?: string; delta?: { content?: string | null } }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  } | null;
}

/**
 * POSTs a streaming OpenAI-style request and times it on the client: the first text chunk is
 * the first token as a user of that server sees it. Usage comes from the final chunk
 * (`stream_options.include_usage`); servers that do not send it leave `usage` undefined.
 */
export async function streamOpenAiCompletion(request: StreamRequest): Promise<StreamedCompletion> {
  const response = await postOpenAi({ ...request, accept: "text/event-stream" });
  const result: StreamedCompletion = { endedAt: 0, textChunks: 0 };
  const onData = (data: string) => {
    if (data === "" || data === "[DONE]") return;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      return;
    }
    const text = chunk.choices?.[0]?.text ?? chunk.choices?.[0]?.delta?.content ?? "";
    if (text.length > 0) {
      result.firstTextAt ??= performance.now();
      result.textChunks += 1;
    }
    if (chunk.usage && typeof chunk.usage.prompt_tokens === "number") {
      result.usage = {
        promptTokens: chunk.usage.prompt_tokens,
        completionTokens: chunk.usage.completion_tokens ?? 0,
        cachedPromptTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
      };
    }
  };
  if (response.body) for await (const message of readSseMessages(response.body)) onData(message.data);
  result.endedAt = performance.now();
  return result;
}
