import { postJson, readAll } from "./postJson.js";

export interface CompletionOutcome {
  /** From sending the request to the first streamed text, as the client sees it. */
  ttftMs: number;
  completionTokens: number;
  promptTokens: number;
  /** Prompt tokens the server reused (`usage.prompt_tokens_details.cached_tokens`), when it says. */
  cachedTokens?: number;
}

interface Usage {
  completion_tokens: number;
  prompt_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/**
 * One greedy `/v1/completions` request, streamed, to either server, through end-of-generation tokens
 * (`ignore_eos`, which both honour) so both generate `maxTokens`. Tokens come from the final
 * `usage` (both servers send it with `include_usage`), else from the count of text chunks.
 */
export async function streamCompletion(
  url: string,
  model: string,
  prompt: string,
  maxTokens: number,
): Promise<CompletionOutcome> {
  const sent = performance.now();
  const response = await postJson(`${url}/v1/completions`, {
    model,
    prompt,
    max_tokens: maxTokens,
    temperature: 0,
    ignore_eos: true,
    stream: true,
    stream_options: { include_usage: true },
  });
  if (response.statusCode !== 200) {
    throw new Error(`${url} answered ${response.statusCode}: ${await readAll(response)}`);
  }
  let first: number | undefined;
  let chunks = 0;
  let usage: Usage | undefined;
  let buffer = "";
  response.setEncoding("utf8");
  for await (const piece of response) {
    buffer += String(piece);
    let index: number;
    while ((index = buffer.indexOf("\n\n")) >= 0) {
      // Only `data:` lines: llama-server sends SSE comments (`: ...`) while a long prompt evaluates.
      const event = buffer
        .slice(0, index)
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      buffer = buffer.slice(index + 2);
      if (event.trim() === "" || event === "[DONE]") continue;
      const chunk = JSON.parse(event) as {
        choices?: { text?: string }[];
        usage?: Usage;
      };
      if (chunk.choices?.[0]?.text) {
        first ??= performance.now();
        chunks += 1;
      }
      if (chunk.usage) usage = chunk.usage;
    }
  }
  const done = performance.now();
  return {
    ttftMs: (first ?? done) - sent,
    completionTokens: usage?.completion_tokens ?? chunks,
    promptTokens: usage?.prompt_tokens ?? 0,
    cachedTokens: usage?.prompt_tokens_details?.cached_tokens,
  };
}
