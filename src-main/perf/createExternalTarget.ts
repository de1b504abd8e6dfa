import crypto from "node:crypto";
import type { PerfExternalTarget } from "../../src-shared/contracts/performance.js";
import { fillerText } from "./fillerText.js";
import type { PerfPrompt, PerfSample, PerfTarget } from "./PerfTarget.js";
import { UniquePrefixes } from "./UniquePrefixes.js";
import { displayBaseUrl } from "../upstream/displayBaseUrl.js";
import { openAiEndpointUrl } from "../upstream/openAiEndpointUrl.js";
import { streamOpenAiCompletion } from "../upstream/streamOpenAiCompletion.js";

export interface ExternalTargetOptions {
  /** Replaces the global `fetch` (tests). Defaults to `fetch`. */
  fetch?: typeof fetch;
}

/** The model id an external target's results are stored under. */
export function externalModelId(target: PerfExternalTarget): string {
  return `external:${target.model}`;
}

/**
 * Measures an OpenAI-compatible server over HTTP, timing on the client (TTFT is when the first
 * text chunk arrives). Its tokenizer is unknown here, so prompt lengths are estimated from two
 * calibration requests (tokens per filler word, plus fixed overhead) and the stored counts are
 * the ones the server reports in `usage`. `ignore_eos` asks llama.cpp/vLLM-style servers for
 * the full token count; a server that rejects it is asked again without it.
 */
export function createExternalTarget(
  target: PerfExternalTarget,
  options: ExternalTargetOptions = {},
): PerfTarget {
  const url = openAiEndpointUrl(target.base_url, target.api === "chat" ? "chat/completions" : "completions");
  const runTag = crypto.randomBytes(3).toString("hex");
  const prefixes = new UniquePrefixes();
  let tokensPerWord = 1.3;
  let overheadTokens = 8;
  let sendIgnoreEos = true;
  let seed = 1;

  const body = (prompt: string, maxTokens: number): Record<string, unknown> => ({
    model: target.model,
    ...(target.api === "chat" ? { messages: [{ role: "user", content: prompt }] } : { prompt }),
    max_tokens: maxTokens,
    temperature: 0,
    stream: true,
    stream_options: { include_usage: true },
    ...(sendIgnoreEos ? { ignore_eos: true } : {}),
  });

  const request = async (prompt: string, maxTokens: number, signal: AbortSignal) => {
    const send = () =>
      streamOpenAiCompletion({
        url,
        apiKey: target.api_key,
        body: body(prompt, maxTokens),
        signal,
        fetch: options.fetch,
      });
    try {
      return await send();
    } catch (error) {
      const status = (error as { details?: { status?: number } }).details?.status;
      if (!sendIgnoreEos || status !== 400) throw error;
      sendIgnoreEos = false;
      return send();
    }
  };

  const buildPrompt = (tokens: number): PerfPrompt => {
    const words = Math.max(1, Math.round((tokens - overheadTokens) / tokensPerWord));
    return { text: `${prefixes.next(runTag)}${fillerText(seed++, words)}`, expectedTokens: tokens };
  };

  return {
    info: {
      kind: "external",
      base_url: displayBaseUrl(target.base_url),
      model: target.model,
      api: target.api,
    },
    modelId: externalModelId(target),
    model: {
      name: target.model,
      quantization: null,
      parameter_count: null,
      file_size_bytes: null,
      context_size: null,
    },
    contextSize: null,
    maxConcurrent: null,
    backend: null,
    threads: null,
    experimentalFeatures: [],
    async warmUp(signal) {
      const sizes = [32, 160];
      const counts: number[] = [];
      for (const words of sizes) {
        const streamed = await request(`${prefixes.next(runTag)}${fillerText(seed++, words)}`, 4, signal);
        if (streamed.usage) counts.push(streamed.usage.promptTokens);
      }
      if (counts.length === 2 && counts[1] > counts[0]) {
        tokensPerWord = (counts[1] - counts[0]) / (sizes[1] - sizes[0]);
        overheadTokens = Math.max(0, counts[0] - tokensPerWord * sizes[0]);
      }
    },
    buildPrompt,
    async generate(prompt, maxTokens, signal): Promise<PerfSample> {
      const submittedAt = performance.now();
      const streamed = await request(prompt.text, maxTokens, signal);
      return {
        promptTokens: streamed.usage?.promptTokens ?? prompt.expectedTokens,
        generatedTokens: streamed.usage?.completionTokens ?? streamed.textChunks,
        cachedPromptTokens: streamed.usage?.cachedPromptTokens ?? 0,
        submittedAt,
        queueWaitMs: 0,
        firstTokenAt: streamed.firstTextAt ?? streamed.endedAt,
        endedAt: streamed.endedAt,
      };
    },
    async gpuBytes() {
      return null;
    },
    async close() {},
  };
}
