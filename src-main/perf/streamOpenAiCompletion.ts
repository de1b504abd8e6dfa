import { PerchError } from "../core/PerchError.js";

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
  const response = await (request.fetch ?? fetch)(request.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...(request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {}),
    },
    body: JSON.stringify(request.body),
    signal: request.signal,
  });
  if (!response.ok || !response.body) {
    const text = await response.text().catch(() => "");
    throw new PerchError(
      "upstream_error",
      `The endpoint answered HTTP ${response.status}: ${text.slice(0, 300)}`,
      {
        details: { status: response.status },
      },
    );
  }
  const result: StreamedCompletion = { endedAt: 0, textChunks: 0 };
  const decoder = new TextDecoder();
  let buffer = "";
  const onLine = (line: string) => {
    if (!line.startsWith("data:")) return;
    const data = line.slice(5).trim();
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
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      onLine(buffer.slice(0, newline).replace(/\r$/, ""));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf("\n");
    }
  }
  onLine(buffer);
  result.endedAt = performance.now();
  return result;
}
