import type { ChatCompletionRequest, CompletionRequest } from "../../../src-shared/contracts/openai.js";
import { PerchError } from "../../base/PerchError.js";

/**
 * How Perch treats OpenAI request fields (README, "Request fields"). One table: every field of the
 * contract is honoured, accepted without effect (it changes nothing for a local model), or refused
 * when a value would change the output in a way Perch cannot honour. Fields the contract does not
 * know are dropped and named in `x-perch-ignored-fields` and the request log.
 */
export const openAiFieldPolicy = {
  honoured: [
    "model",
    "messages",
    "prompt",
    "stream",
    "stream_options.include_usage",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "top_p",
    "top_k",
    "min_p",
    "seed",
    "presence_penalty",
    "frequency_penalty",
    "repetition_penalty",
    "repeat_penalty",
    "ignore_eos",
    "stop",
    "n",
    "logit_bias",
    "response_format",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "functions",
    "function_call",
    "reasoning_effort",
    "chat_template_kwargs.enable_thinking",
    "echo",
    "best_of",
    "logprobs",
    "top_logprobs",
    "suffix",
  ],
  noEffect: ["user", "metadata", "store", "service_tier", "prediction", 'modalities: ["text"]'],
  refused: {
    logprobs: "prompt tokens have no log probabilities here, so `echo` cannot be combined with `logprobs`",
    top_logprobs: "not without `logprobs: true` (OpenAI refuses it too)",
    modalities: "only text output exists locally",
    functions: "send either `tools` or the legacy `functions`, not both",
  },
} as const;

type Refused = keyof typeof openAiFieldPolicy.refused;

const refuse = (field: Refused): never => {
  throw new PerchError(
    "invalid_request",
    `'${field}' is not supported: ${openAiFieldPolicy.refused[field]}.`,
    {
      param: field,
    },
  );
};

/** Refuses the values of `refused` fields that would change the output. */
export function enforceOpenAiFieldPolicy(body: ChatCompletionRequest | CompletionRequest): void {
  if (!("messages" in body)) {
    if (typeof body.logprobs === "number" && body.echo) refuse("logprobs");
    return;
  }
  if (body.top_logprobs != null && body.logprobs !== true) refuse("top_logprobs");
  if (body.modalities && body.modalities.some((modality) => modality !== "text")) refuse("modalities");
  if (body.functions?.length && body.tools?.length) refuse("functions");
}
