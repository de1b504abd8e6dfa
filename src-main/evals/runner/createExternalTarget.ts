import type { ExternalTarget } from "../../../src-shared/contracts/evalQueue.js";
import { PerchError } from "../../base/PerchError.js";
import type { FinishReason, SamplingOptions } from "../../scheduler/GenerationRequest.js";
import type { EvalTarget, TargetRequest } from "./EvalTarget.js";
import { toEffective } from "./resolveSampling.js";
import { toChatCompletionBody } from "./toChatCompletionBody.js";
import { displayBaseUrl } from "../../upstream/displayBaseUrl.js";
import { openAiEndpointUrl } from "../../upstream/openAiEndpointUrl.js";
import { postOpenAi, type UpstreamDetails } from "../../upstream/postOpenAi.js";

export interface ExternalTargetOptions {
  /** Seconds one request may take before it fails as a generation error. Defaults to `1800`. */
  requestTimeoutSeconds?: number;
  /** Replaceable for tests. Defaults to `globalThis.fetch`. */
  fetch?: typeof fetch;
}

interface ChatCompletion {
  choices?: Array<{
    finish_reason?: string | null;
    message?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
  }>;
  usage?: { completion_tokens?: number };
}

/**
 * An OpenAI-compatible server (llama-server, vLLM, LM Studio, Ollama) reached over
 * `POST {base}/v1/chat/completions`, non-streaming, aborted with the run.
 */
export function createExternalTarget(
  target: ExternalTarget,
  options: ExternalTargetOptions = {},
): EvalTarget {
  const timeoutMs = (options.requestTimeoutSeconds ?? 1800) * 1000;
  const url = openAiEndpointUrl(target.base_url, "chat/completions");
  // Servers that reject non-OpenAI fields (top_k, chat_template_kwargs...) get plain bodies after
  // the first such refusal.
  let plain = false;

  const post = (request: TargetRequest, asPlain: boolean): Promise<Response> =>
    postOpenAi({
      url,
      apiKey: target.api_key,
      body: toChatCompletionBody(target.model, request, { plain: asPlain }),
      signal: request.signal,
      timeoutMs,
      fetch: options.fetch,
    });

  return {
    modelId: target.model,
    description: {
      kind: "external",
      base_url: displayBaseUrl(target.base_url),
      model: target.model,
      api_key_set: target.api_key !== undefined,
    },
    async generate(request) {
      let response: Response;
      try {
        response = await post(request, plain);
      } catch (error) {
        const details =
          error instanceof PerchError ? (error.details as UpstreamDetails | undefined) : undefined;
        const refusedExtensions =
          !plain &&
          details?.status === 400 &&
          /chat_template_kwargs|top_k|min_p|repeat_penalty|unrecognized|unknown|extra/i.test(details.message);
        if (!refusedExtensions) throw error;
        plain = true;
        response = await post(request, true);
      }
      const completion = (await response.json().catch(() => undefined)) as ChatCompletion | undefined;
      const choice = completion?.choices?.[0];
      if (!choice?.message) {
        throw new PerchError("upstream_error", `${displayBaseUrl(url)} answered without choices[0].message.`);
      }
      const content = choice.message.content ?? "";
      const reasoning = choice.message.reasoning_content ?? choice.message.reasoning ?? "";
      return {
        text: reasoning ? `<think>${reasoning}</think>${content}` : content,
        finishReason: toFinishReason(choice.finish_reason),
        completionTokens: completion?.usage?.completion_tokens,
      };
    },
    effectiveSampling(sampling: SamplingOptions) {
      const sent = toChatCompletionBody(
        target.model,
        { sampling, messages: [], maxTokens: 1, thinking: false },
        { plain },
      );
      return toEffective({
        temperature: sent.temperature,
        topP: sent.top_p,
        topK: sent.top_k,
        minP: sent.min_p,
        seed: sent.seed,
        presencePenalty: sent.presence_penalty,
        frequencyPenalty: sent.frequency_penalty,
        repeatPenalty: sent.repeat_penalty,
      });
    },
  };
}

function toFinishReason(reason: string | null | undefined): FinishReason {
  return reason === "length" ? "length" : "stop";
}
