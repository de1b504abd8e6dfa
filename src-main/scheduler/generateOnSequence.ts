import { LlamaChat, LlamaCompletion, type LlamaContextSequence, type Token } from "node-llama-cpp";
import type { FinishReason, TokenLogprob } from "./GenerationRequest.js";
import type { PreparedRequest } from "./prepareRequest.js";
import type { ToolCall, UnfinishedToolCall } from "../tools/ToolDefinition.js";
import { ToolCallCollector } from "../tools/ToolCallCollector.js";
import { SampledTokens } from "./SampledTokens.js";

export interface SequenceRunHooks {
  /** Called for every released piece of generated text (streaming), with its tokens' logprobs when asked. */
  onText: (text: string, logprobs?: TokenLogprob[]) => void;
  /** Called for every released piece of reasoning (a chat format's thought segment). */
  onReasoning: (text: string) => void;
  /**
   * Called with the count of each batch of generated tokens (first call = first token): every
   * sampled token but end-of-generation ones, tool calls and reasoning included.
   */
  onTokens: (count: number) => void;
  /**
   * Awaited once the sequence holds the reused prefix, before any prompt token is evaluated, with
   * how many prompt tokens are left to evaluate.
   */
  beforePrompt?: (evaluating: number) => Promise<void>;
}

/** The node-llama-cpp patch's decode-ahead opt-in (see `startDecodeAhead` in the patch). */
interface AheadSequence {
  _perchDecodeAhead?: { tokensLeft: number };
}

export interface SequenceRunResult {
  text: string;
  /** Thought segments, joined; empty when the model did not reason. */
  reasoning: string;
  finishReason: FinishReason;
  /** The complete tool calls the model made (chat prompts with tools). */
  toolCalls?: ToolCall[];
  /** The stop string that ended generation, when one did. */
  stopSequence?: string;
  /** A call the token limit cut off (its start and arguments so far were streamed). */
  unfinishedToolCalls?: UnfinishedToolCall[];
  /** Prompt tokens already in the sequence from an earlier request (prefix reuse). */
  cachedPromptTokens: number;
  /** The answer's tokens, when the request asked for logprobs. */
  logprobs?: TokenLogprob[];
}

/**
 * Runs one prepared request on a sequence it owns: reuses the cached prompt prefix, evaluates a
 * long prompt in context-batch-sized chunks (so an abort is seen between chunks, and the other
 * sequences keep decoding in between), then generates with `LlamaChat` (chat) or
 * `LlamaCompletion` (text) on the same sequence.
 */
export async function generateOnSequence(
  prepared: PreparedRequest,
  sequence: LlamaContextSequence,
  hooks: SequenceRunHooks,
): Promise<SequenceRunResult> {
  const signal = prepared.request.signal;
  const prefix = prepared.promptTokens.slice(0, -1);
  // Prefix reuse without KV shifting: shifted cells are re-roped, not recomputed, so they are
  // not bit-identical to a fresh prompt and greedy output would depend on what ran before.
  await sequence.adaptStateToTokens(prefix, false);
  const cachedPromptTokens = sequence.nextTokenIndex;
  const cancelled = (): SequenceRunResult => ({
    text: "",
    reasoning: "",
    finishReason: "cancelled",
    cachedPromptTokens,
  });
  await hooks.beforePrompt?.(prepared.promptTokens.length - cachedPromptTokens);
  if (signal?.aborted) return cancelled();
  const chunk = sequence.context.batchSize;
  if (prefix.length - cachedPromptTokens > chunk) {
    for (let start = cachedPromptTokens; start < prefix.length; start += chunk) {
      if (signal?.aborted) return cancelled();
      await sequence.evaluateWithoutGeneratingNewTokens(prefix.slice(start, start + chunk) as Token[]);
    }
  }
  if (signal?.aborted) return cancelled();

  const { sampling } = prepared;
  const common = {
    signal,
    stopOnAbortSignal: true,
    maxTokens: prepared.maxTokens,
    temperature: sampling.temperature,
    topK: sampling.topK,
    topP: sampling.topP,
    minP: sampling.minP,
    seed: sampling.seed,
    repeatPenalty: sampling.repeatPenalty,
    grammar: prepared.grammar,
    tokenBias: prepared.tokenBias,
    customStopTriggers: prepared.request.stop?.filter((stop) => stop.length > 0),
  };
  let text: string;
  let reasoning = "";
  let stopReason: string;
  let stopSequence: string | undefined;
  let toolCalls: ToolCall[] | undefined;
  let unfinishedToolCalls: UnfinishedToolCall[] | undefined;
  const sampled = new SampledTokens(sequence.model, {
    top: prepared.request.logprobs?.top,
    onToken: () => hooks.onTokens(1),
  });
  const logprobs: TokenLogprob[] = [];
  const release = (text: string, tokens: readonly Token[]) => {
    if (!sampled.recordsLogprobs) return hooks.onText(text);
    const pieces = sampled.take(tokens, text);
    logprobs.push(...pieces);
    hooks.onText(text, pieces);
  };
  const unwatch = sampled.watch(sequence);
  // Each token is decoded while this side handles it (the node-llama-cpp patch's decode ahead), up
  // to maxTokens; none after an abort, so a cancelled request has no decode ahead to take back.
  const ahead = { tokensLeft: prepared.maxTokens };
  const stopAhead = () => {
    ahead.tokensLeft = 0;
  };
  (sequence as unknown as AheadSequence)._perchDecodeAhead = ahead;
  signal?.addEventListener("abort", stopAhead, { once: true });
  try {
    if (prepared.history) {
      const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: prepared.chatWrapper });
      const { tools } = prepared;
      const collector = tools
        ? new ToolCallCollector(prepared.request.tools?.idPrefix, prepared.request.onToolCall)
        : undefined;
      // `LlamaChat` takes either a grammar or functions (prepareRequest never lets both through).
      const { grammar, ...unconstrained } = common;
      const options = tools
        ? {
            ...unconstrained,
            functions: tools.functions,
            documentFunctionParams: true,
            maxParallelFunctionCalls: tools.maxParallelFunctionCalls,
            onFunctionCallParamsChunk: collector?.onParamsChunk,
            onFunctionCall: collector?.onCall,
          }
        : { ...unconstrained, grammar };
      try {
        const result = await chat.generateResponse(prepared.history, {
          ...options,
          // Segment chunks are reasoning: their tokens are taken so the answer's logprobs skip them.
          onResponseChunk: (chunk) => {
            if (chunk.type === undefined) return release(chunk.text, chunk.tokens);
            sampled.take(chunk.tokens, chunk.text);
            if (chunk.segmentType === "thought" && chunk.text.length > 0) hooks.onReasoning(chunk.text);
          },
          // Thinking off: the thought segment gets no tokens (a format that opens it closes it at once).
          ...(prepared.request.thinking === false ? { budgets: { thoughtTokens: 0 } } : {}),
        });
        text = result.response;
        reasoning = result.fullResponse
          .flatMap((item) =>
            typeof item !== "string" && item.type === "segment" && item.segmentType === "thought"
              ? [item.text]
              : [],
          )
          .join("");
        stopReason = result.metadata.stopReason;
        stopSequence = stopSequenceOf(result.metadata, prepared.request.stop);
        toolCalls = collector?.calls();
        unfinishedToolCalls = collector?.unfinished();
      } finally {
        chat.dispose({ disposeSequence: false });
      }
    } else if (prepared.request.prompt.kind === "text") {
      const completion = new LlamaCompletion({ contextSequence: sequence });
      // The library hands out a release's tokens, then its text.
      let releasedTokens: readonly Token[] = [];
      const { text: promptText, suffix } = prepared.request.prompt;
      try {
        const options = {
          ...common,
          onToken: (tokens: Token[]) => {
            releasedTokens = tokens;
          },
          onTextChunk: (text: string) => release(text, releasedTokens),
          // Never drop the start of the prompt to make room: `prepareRequest` already capped maxTokens.
          disableContextShift: true,
        };
        // Fill-in-the-middle; no shift room either, so the tokens are `prepareRequest`'s, uncut.
        const result =
          suffix === undefined
            ? await completion.generateCompletionWithMeta(prepared.completionTokens ?? promptText, options)
            : await completion.generateInfillCompletionWithMeta(promptText, suffix, {
                ...options,
                contextShiftSize: 0,
              });
        text = result.response;
        stopReason = result.metadata.stopReason;
        stopSequence = stopSequenceOf(result.metadata, prepared.request.stop);
      } finally {
        completion.dispose({ disposeSequence: false });
      }
    } else {
      throw new Error("A chat request was prepared without a history");
    }
  } finally {
    unwatch();
    signal?.removeEventListener("abort", stopAhead);
    delete (sequence as unknown as AheadSequence)._perchDecodeAhead;
  }
  return {
    text,
    reasoning,
    finishReason: toFinishReason(stopReason, signal),
    ...(stopSequence !== undefined ? { stopSequence } : {}),
    ...(toolCalls && toolCalls.length > 0 ? { toolCalls } : {}),
    ...(unfinishedToolCalls && unfinishedToolCalls.length > 0 ? { unfinishedToolCalls } : {}),
    cachedPromptTokens,
    ...(sampled.recordsLogprobs ? { logprobs } : {}),
  };
}

/** The request's stop string that ended generation, from node-llama-cpp's trigger (its text parts). */
function stopSequenceOf(
  metadata: { stopReason: string; customStopTrigger?: readonly (string | Token)[] },
  stops: readonly string[] | undefined,
): string | undefined {
  if (metadata.stopReason !== "customStopTrigger" || !metadata.customStopTrigger) return undefined;
  const text = metadata.customStopTrigger.filter((part) => typeof part === "string").join("");
  return stops?.find((stop) => stop === text) ?? (text === "" ? undefined : text);
}

function toFinishReason(stopReason: string, signal: AbortSignal | undefined): FinishReason {
  if (stopReason === "abort" || signal?.aborted) return "cancelled";
  if (stopReason === "maxTokens") return "length";
  if (stopReason === "functionCalls") return "tool_calls";
  return "stop";
}
