import type { ExternalTarget } from "../../../src-shared/contracts/evalRuns.js";
import { PerchError } from "../../core/PerchError.js";
import type { FinishReason, SamplingOptions } from "../../scheduler/GenerationRequest.js";
import type { EvalTarget, TargetRequest } from "./EvalTarget.js";
import { toEffective } from "./resolveSampling.js";
import { toChatCompletionBody } from "./toChatCompletionBody.js";

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
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = (options.requestTimeoutSeconds ?? 1800) * 1000;
  const url = chatCompletionsUrl(target.base_url);
  // Servers that reject non-OpenAI fields (top_k, chat_template_kwargs...) get plain bodies after
  // the first such refusal.
  let plain = false;

  const post = async (request: TargetRequest, asPlain: boolean): Promise<Response> => {
    const body = toChatCompletionBody(target.model, request, { plain: asPlain });
    const signal = AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
    try {
      return await fetchImpl(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(target.api_key ? { authorization: `Bearer ${target.api_key}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason ?? error;
      throw new PerchError("upstream_error", `Could not reach ${url}: ${(error as Error).message}`);
    }
  };

  return {
    modelId: target.model,
    description: {
      kind: "external",
      base_url: target.base_url,
      model: target.model,
      api_key_set: target.api_key !== undefined,
    },
    async generate(request) {
      let response = await post(request, plain);
      if (response.status === 400 && !plain) {
        const detail = await response.text().catch(() => "");
        if (!/chat_template_kwargs|top_k|min_p|repeat_penalty|unrecognized|unknown|extra/i.test(detail)) {
          throw upstreamError(url, response.status, detail);
        }
        plain = true;
        response = await post(request, true);
      }
      if (!response.ok) throw upstreamError(url, response.status, await response.text().catch(() => ""));
      const completion = (await response.json().catch(() => undefined)) as ChatCompletion | undefined;
      const choice = completion?.choices?.[0];
      if (!choice?.message) {
        throw new PerchError("upstream_error", `${url} answered without choices[0].message.`);
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

/** Accepts `http://host:8080`, `http://host:8080/`, `http://host:8080/v1`. */
export function chatCompletionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(base) ? `${base}/chat/completions` : `${base}/v1/chat/completions`;
}

function toFinishReason(reason: string | null | undefined): FinishReason {
  return reason === "length" ? "length" : "stop";
}

function upstreamError(url: string, status: number, detail: string): PerchError {
  const message = detail.replace(/\s+/g, " ").trim().slice(0, 300);
  return new PerchError("upstream_error", `${url} answered ${status}${message ? `: ${message}` : ""}`, {
    details: { status },
  });
}
