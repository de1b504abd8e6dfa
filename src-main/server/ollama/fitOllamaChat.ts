import { PerchError } from "../../base/PerchError.js";
import type { GenerationRequest } from "../../scheduler/GenerationRequest.js";

/**
 * Ollama's answer to a conversation longer than the context: the oldest messages go, the system
 * messages and the latest turns stay (Ollama's `chatPrompt` does the same), so a long chat goes
 * on instead of failing. Here the request is tried as sent; only a `context_length_exceeded`
 * (raised before anything is generated) makes it drop, from the front, whole turns: the kept part
 * starts at a user message, so no tool result loses its call. Of the cuts that fit, the one
 * keeping the most is taken, with room left for a reply (`max_tokens`, else a quarter of the
 * context, at most 1024 tokens). When even the last turn does not fit, the original error stands.
 */
export async function generateFitted<Result>(
  request: GenerationRequest,
  generate: (request: GenerationRequest) => Promise<Result>,
  countPromptTokens: (request: GenerationRequest) => Promise<number>,
): Promise<Result> {
  try {
    return await generate(request);
  } catch (error) {
    const contextSize = exceededContext(error);
    if (contextSize === undefined || request.prompt.kind !== "chat") throw error;
    const { messages } = request.prompt;
    const system = messages.filter((message) => message.role === "system");
    const starts = messages.flatMap((message, index) => (message.role === "user" ? [index] : []));
    const reserve = Math.min(request.maxTokens ?? 1024, Math.floor(contextSize / 4), 1024);
    const cut = (start: number): GenerationRequest => ({
      ...request,
      prompt: {
        kind: "chat",
        messages: [...system, ...messages.slice(start).filter((message) => message.role !== "system")],
      },
    });
    const fits = async (start: number) => (await countPromptTokens(cut(start))) <= contextSize - reserve;
    // Fewer messages never take more tokens: the first start that fits keeps the most.
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (await fits(starts[middle]!)) high = middle;
      else low = middle + 1;
    }
    const start = starts[low];
    if (start === undefined || start === 0) throw error;
    return generate(cut(start));
  }
}

/** The context size a `context_length_exceeded` error reports, else undefined. */
function exceededContext(error: unknown): number | undefined {
  if (!(error instanceof PerchError) || error.code !== "context_length_exceeded") return undefined;
  const size = (error.details as { contextSize?: unknown } | undefined)?.contextSize;
  return typeof size === "number" ? size : undefined;
}
