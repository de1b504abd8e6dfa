import type { TargetRequest } from "./EvalTarget.js";

/** The JSON body of one OpenAI chat completion request. */
export interface ChatCompletionBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens: number;
  stream: false;
  temperature?: number;
  top_p?: number;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  top_k?: number;
  min_p?: number;
  repeat_penalty?: number;
  chat_template_kwargs?: { enable_thinking: boolean };
}

/**
 * Builds the request body. OpenAI's own fields always travel; llama.cpp/vLLM extensions (top_k,
 * min_p, repeat_penalty, the thinking switch) only when `plain` is off, and the samplers only when
 * they are not neutral, so a strict server still gets the same greedy decoding.
 */
export function toChatCompletionBody(
  model: string,
  request: Pick<TargetRequest, "messages" | "sampling" | "maxTokens" | "thinking">,
  options: { plain: boolean },
): ChatCompletionBody {
  const { sampling } = request;
  const body: ChatCompletionBody = {
    model,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
    max_tokens: request.maxTokens,
    stream: false,
    temperature: sampling.temperature,
    top_p: sampling.topP,
    seed: sampling.seed,
    presence_penalty: sampling.presencePenalty,
    frequency_penalty: sampling.frequencyPenalty,
  };
  if (!options.plain) {
    if (sampling.topK !== undefined && sampling.topK > 0) body.top_k = sampling.topK;
    if (sampling.minP !== undefined && sampling.minP > 0) body.min_p = sampling.minP;
    if (sampling.repeatPenalty !== undefined && sampling.repeatPenalty !== 1)
      body.repeat_penalty = sampling.repeatPenalty;
    body.chat_template_kwargs = { enable_thinking: request.thinking };
  }
  return JSON.parse(JSON.stringify(body)) as ChatCompletionBody;
}
