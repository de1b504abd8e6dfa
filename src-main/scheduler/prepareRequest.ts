import {
  LlamaVocabularyType,
  type ChatHistoryItem,
  type ChatWrapper,
  type Llama,
  type LlamaGrammar,
  type LlamaModel,
  type Token,
  type TokenBias,
} from "node-llama-cpp";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import { PerchError } from "../base/PerchError.js";
import type { ChatMessage, GenerationRequest } from "./GenerationRequest.js";
import { resolveSampling, type ResolvedSampling } from "./resolveSampling.js";
import { errorMessage } from "../base/describeError.js";

/** A request checked and translated for node-llama-cpp, before it waits for a sequence. */
export interface PreparedRequest {
  request: GenerationRequest;
  /** The tokens the sequence will hold before the first generated token. */
  promptTokens: Token[];
  /** `undefined` for text prompts. */
  history?: ChatHistoryItem[];
  /** The chat format the prompt was built with (it depends on the thinking switch). */
  chatWrapper: ChatWrapper;
  maxTokens: number;
  sampling: ResolvedSampling;
  grammar?: LlamaGrammar;
  /** Forbids end-of-generation tokens (`ignoreEos`). */
  tokenBias?: TokenBias;
  /** Whether this request may speculate when it is alone in the batch (DESIGN.md). */
  speculationEligible: boolean;
}

export interface PrepareContext {
  llama: Llama;
  model: LlamaModel;
  chatWrapper: ChatWrapper;
  contextSize: number;
  settings: ModelSettings;
  jsonGrammar: () => Promise<LlamaGrammar>;
  endOfGenerationBias: () => TokenBias;
}

/**
 * Tokenizes the prompt exactly as `LlamaChat` / `LlamaCompletion` will, rejects what cannot fit
 * (`context_length_exceeded`, never a silent truncation), caps `maxTokens` to the room left and
 * builds the grammar of a JSON constraint.
 */
export async function prepareRequest(
  request: GenerationRequest,
  context: PrepareContext,
): Promise<PreparedRequest> {
  const { model, contextSize } = context;
  let promptTokens: Token[];
  let history: ChatHistoryItem[] | undefined;
  if (request.prompt.kind === "chat") {
    history = toChatHistory(request.prompt.messages);
    promptTokens = context.chatWrapper
      .generateContextState({ chatHistory: history })
      .contextText.tokenize(model.tokenizer);
  } else {
    promptTokens = tokenizeCompletionInput(model, request.prompt.text);
  }
  // The sequence holds at most contextSize - 1 tokens and the last generated one is never fed back.
  const room = contextSize - promptTokens.length;
  if (room < 1) {
    throw new PerchError(
      "context_length_exceeded",
      `The prompt is ${promptTokens.length} tokens; the context of '${request.modelId}' holds ${contextSize}.`,
      { param: "messages", details: { promptTokens: promptTokens.length, contextSize } },
    );
  }
  const requested = request.maxTokens ?? context.settings.sampling?.max_tokens;
  const maxTokens = Math.max(1, Math.min(requested ?? room, room));
  const sampling = resolveSampling(request.sampling, context.settings.sampling);
  const grammar = await resolveGrammar(request, context);
  return {
    request,
    promptTokens,
    history,
    chatWrapper: context.chatWrapper,
    maxTokens,
    sampling,
    grammar,
    tokenBias: request.ignoreEos ? context.endOfGenerationBias() : undefined,
    // Penalties are computed from the tokens generated so far; node-llama-cpp samples drafted
    // positions with the list as it was before the draft, so penalised speculation would change
    // the output. Constrained decoding never speculates (DESIGN.md).
    speculationEligible: !request.constraint && !sampling.penalized,
  };
}

function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message) =>
    message.role === "assistant"
      ? { type: "model", response: [message.content] }
      : { type: message.role, text: message.content },
  );
  // A trailing assistant message is continued; otherwise the model answers in a new one.
  if (history.at(-1)?.type !== "model") history.push({ type: "model", response: [] });
  return history;
}

/** `LlamaCompletion`'s input tokenization (BOS rule from llama.cpp's `llama_tokenize_internal`). */
function tokenizeCompletionInput(model: LlamaModel, text: string): Token[] {
  const bos = resolveBeginningToken(model);
  const tokens = model.tokenize(text, false, bos !== null ? "trimLeadingSpace" : undefined);
  return bos !== null ? [bos, ...tokens] : tokens;
}

function resolveBeginningToken(model: LlamaModel): Token | null {
  const type = model.vocabularyType;
  if (type === LlamaVocabularyType.rwkv || type === LlamaVocabularyType.ugm) return null;
  if (type === LlamaVocabularyType.wpm) return model.tokens.bos;
  return model.tokens.shouldPrependBosToken ? model.tokens.bos : null;
}

async function resolveGrammar(
  request: GenerationRequest,
  context: PrepareContext,
): Promise<LlamaGrammar | undefined> {
  const constraint = request.constraint;
  if (!constraint) return undefined;
  switch (constraint.kind) {
    case "json_object":
      return context.jsonGrammar();
    case "json_schema":
      try {
        return await context.llama.createGrammarForJsonSchema(constraint.schema as never);
      } catch (error) {
        throw new PerchError("invalid_request", `Unsupported JSON schema: ${errorMessage(error)}`, {
          param: "response_format",
        });
      }
    default:
      constraint satisfies never;
      return undefined;
  }
}
