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
import type { GenerationRequest } from "./GenerationRequest.js";
import { resolveSampling, type ResolvedSampling } from "./resolveSampling.js";
import { errorMessage } from "../base/describeError.js";
import { ChatHistoryError, toChatHistory } from "../tools/toChatHistory.js";
import { planToolCalling, type ToolCallingPlan } from "../tools/planToolCalling.js";
import { toFunctionSchema } from "../tools/toFunctionSchema.js";
import { createTokenBias, vocabularySize } from "./createTokenBias.js";

/** A request checked and translated for node-llama-cpp, before it waits for a sequence. */
export interface PreparedRequest {
  request: GenerationRequest;
  /** The tokens the sequence will hold before the first generated token. */
  promptTokens: Token[];
  /** `undefined` for text prompts. */
  history?: ChatHistoryItem[];
  /** A token prompt as `LlamaCompletion` takes it (it adds the beginning token itself). */
  completionTokens?: Token[];
  /** The chat format the prompt was built with (it depends on the thinking switch and on tool choice). */
  chatWrapper: ChatWrapper;
  /** The tools `LlamaChat` may call (chat prompts with tools only). */
  tools?: Omit<ToolCallingPlan, "chatWrapper">;
  maxTokens: number;
  sampling: ResolvedSampling;
  grammar?: LlamaGrammar;
  /** Forbids end-of-generation tokens (`ignoreEos`) and carries the request's logit bias. */
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
  await refuseFarTooLong(request, model, contextSize);
  let promptTokens: Token[];
  let history: ChatHistoryItem[] | undefined;
  let completionTokens: Token[] | undefined;
  let chatWrapper = context.chatWrapper;
  let tools: PreparedRequest["tools"];
  if (request.prompt.kind === "chat") {
    history = chatHistoryOf(request, context.chatWrapper);
    const plan = await planTools(request, context);
    chatWrapper = plan.chatWrapper;
    tools = plan.functions
      ? { functions: plan.functions, maxParallelFunctionCalls: plan.maxParallelFunctionCalls }
      : undefined;
    // Exactly what `LlamaChat` renders: the same functions, documented with their parameters.
    promptTokens = chatWrapper
      .generateContextState({
        chatHistory: history,
        availableFunctions: tools?.functions,
        documentFunctionParams: true,
      })
      .contextText.tokenize(model.tokenizer);
  } else if (request.prompt.tokens !== undefined) {
    if (request.prompt.suffix !== undefined) {
      throw new PerchError(
        "invalid_request",
        "Fill-in-the-middle (suffix) needs a text prompt, not tokens.",
        {
          param: "suffix",
        },
      );
    }
    completionTokens = checkPromptTokens(model, request.prompt.tokens);
    const bos = resolveBeginningToken(model);
    promptTokens = bos !== null ? [bos, ...completionTokens] : completionTokens;
  } else if (request.prompt.suffix !== undefined) {
    promptTokens = tokenizeInfillInput(request.modelId, model, request.prompt.text, request.prompt.suffix);
  } else {
    // Given to the library as tokens: it would tokenize the text again, without special tokens.
    completionTokens = tokenizeCompletionText(model, request.prompt.text);
    const bos = resolveBeginningToken(model);
    promptTokens = bos !== null ? [bos, ...completionTokens] : completionTokens;
  }
  // The sequence holds at most contextSize - 1 tokens and the last generated one is never fed back.
  const room = contextSize - promptTokens.length;
  if (room < 1) {
    throw new PerchError(
      "context_length_exceeded",
      `The prompt is ${promptTokens.length} tokens; the context of '${request.modelId}' holds ${contextSize}.`,
      {
        param: request.prompt.kind === "chat" ? "messages" : "prompt",
        details: { promptTokens: promptTokens.length, contextSize },
      },
    );
  }
  const requested = request.maxTokens ?? context.settings.sampling?.max_tokens;
  const maxTokens = Math.max(1, Math.min(requested ?? room, room));
  const sampling = resolveSampling(request.sampling, context.settings.sampling);
  if (tools && request.constraint) {
    throw new PerchError(
      "invalid_request",
      "A response format cannot be combined with tools the model may call; set the tool choice to none or drop the format.",
      { param: "response_format" },
    );
  }
  const grammar = await resolveGrammar(request, context);
  const baseBias = request.ignoreEos ? context.endOfGenerationBias() : undefined;
  const hasLogitBias = request.logitBias !== undefined && Object.keys(request.logitBias).length > 0;
  return {
    request,
    promptTokens,
    history,
    ...(completionTokens ? { completionTokens } : {}),
    chatWrapper,
    tools,
    maxTokens,
    sampling,
    grammar,
    tokenBias: hasLogitBias ? createTokenBias(model, request.logitBias ?? {}, baseBias) : baseBias,
    // Penalties are computed from the tokens generated so far; node-llama-cpp samples drafted
    // positions with the list as it was before the draft, so penalised speculation would change
    // the output. Constrained decoding (a JSON format, a tool call's grammar) never speculates (DESIGN.md).
    speculationEligible: !request.constraint && !tools && !sampling.penalized,
  };
}

/** The conversation in node-llama-cpp's shape; a tool message that answers no call is the client's error. */
function chatHistoryOf(request: GenerationRequest, chatWrapper: ChatWrapper): ChatHistoryItem[] {
  if (request.prompt.kind !== "chat") return [];
  try {
    return toChatHistory(request.prompt.messages, chatWrapper);
  } catch (error) {
    if (!(error instanceof ChatHistoryError)) throw error;
    throw new PerchError("invalid_request", error.message, {
      param: "messages",
      details: { messageIndex: error.messageIndex },
    });
  }
}

/**
 * The chat format and callable functions for the request's tools. Every arguments schema is
 * compiled into a grammar here, so a schema the grammar cannot express is refused before any
 * generation (not discovered mid-call).
 */
async function planTools(request: GenerationRequest, context: PrepareContext): Promise<ToolCallingPlan> {
  const use = request.tools;
  if (use && use.choice.kind !== "none") {
    const fields = use.fields ?? { tools: "tools", choice: "tool_choice" };
    const names = new Set<string>();
    for (const [index, tool] of use.tools.entries()) {
      if (names.has(tool.name))
        throw new PerchError("invalid_request", `Two ${fields.tools} are named '${tool.name}'.`, {
          param: fields.tools,
        });
      names.add(tool.name);
      if (!tool.parameters) continue;
      try {
        await context.llama.createGrammarForJsonSchema(toFunctionSchema(tool.parameters).schema as never);
      } catch (error) {
        throw new PerchError(
          "invalid_request",
          `The parameters schema of tool '${tool.name}' is not supported: ${errorMessage(error)}`,
          { param: fields.tools, details: { toolIndex: index } },
        );
      }
    }
    if (use.choice.kind === "function" && !names.has(use.choice.name)) {
      throw new PerchError(
        "invalid_request",
        `${fields.choice} names '${use.choice.name}', which is not among the ${fields.tools}.`,
        {
          param: fields.choice,
        },
      );
    }
  }
  return planToolCalling(context.chatWrapper, use);
}

/** `LlamaCompletion`'s input tokenization (BOS rule from llama.cpp's `llama_tokenize_internal`). */
/**
 * A token prompt's ids, checked against the vocabulary, without a leading beginning-of-sequence
 * token (`LlamaCompletion` adds the model's own, so a client's would be a second one).
 */
function checkPromptTokens(model: LlamaModel, tokens: readonly number[]): Token[] {
  const size = vocabularySize(model);
  const outside = tokens.find((token) => !Number.isInteger(token) || token < 0 || token >= size);
  if (outside !== undefined) {
    throw new PerchError(
      "invalid_request",
      `The prompt names token ${outside}, which is not in the model's vocabulary (0 to ${size - 1}).`,
      { param: "prompt" },
    );
  }
  const bos = resolveBeginningToken(model);
  return (bos !== null && tokens[0] === bos ? tokens.slice(1) : tokens.slice()) as Token[];
}

/**
 * A text prompt's tokens after the BOS the library adds, the model's special tokens read as such
 * (`<|im_start|>` is one control token, as llama-server's /completion and Ollama's raw mode read
 * it: a template written by hand must reach the model as that template). A prompt that starts with
 * the BOS text does not get a second one.
 */
function tokenizeCompletionText(model: LlamaModel, text: string): Token[] {
  const bos = resolveBeginningToken(model);
  const tokens = model.tokenize(text, true, bos !== null ? "trimLeadingSpace" : undefined);
  return bos !== null && tokens[0] === bos ? tokens.slice(1) : tokens;
}

/**
 * `LlamaCompletion.generateInfillCompletion`'s input: the prefix and suffix between the model's
 * FIM tokens (prefix-suffix-middle order, or suffix-prefix without a middle token), whole: the
 * prompt cache and slot routing key on exactly these tokens, and `generateOnSequence` asks for no
 * context-shift room, so nothing is cut.
 */
function tokenizeInfillInput(modelId: string, model: LlamaModel, prefix: string, suffix: string): Token[] {
  const { prefix: prefixToken, suffix: suffixToken, middle: middleToken } = model.tokens.infill;
  if (prefixToken === null || suffixToken === null) {
    throw new PerchError(
      "invalid_request",
      `'suffix' needs a model with fill-in-the-middle tokens; '${modelId}' has none. Send the prompt without a suffix, or use a model trained for infill.`,
      { param: "suffix" },
    );
  }
  const bos = resolveBeginningToken(model);
  const before = model.tokenize(prefix, false, "trimLeadingSpace");
  const after = model.tokenize(suffix, false, "trimLeadingSpace");
  const gap =
    middleToken !== null
      ? [prefixToken, ...before, suffixToken, ...after, middleToken]
      : [suffixToken, ...after, prefixToken, ...before];
  return bos !== null ? [bos, ...gap] : gap;
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
        // The dialect the tools' schemas get too: `definitions`, `anyOf`, type lists, `nullable`,
        // unknown types refused instead of read as `null`.
        const schema = toFunctionSchema(constraint.schema).schema;
        return await context.llama.createGrammarForJsonSchema(schema as never);
      } catch (error) {
        throw new PerchError("invalid_request", `Unsupported JSON schema: ${errorMessage(error)}`, {
          param: constraint.param ?? "response_format",
        });
      }
    default:
      constraint satisfies never;
      return undefined;
  }
}

/** Characters tokenized per step of `refuseFarTooLong`, between which the event loop runs. */
const piece = 64 * 1024;
/** Tokens a cut between two pieces may add, at most (a split word, a split emoji). */
const piecesMargin = 32;

/**
 * Tokenizing is synchronous: a 4 MB prompt held the event loop for seconds, stalling every other
 * stream and `/health`, only to be refused. A prompt far longer in characters than the context
 * is counted in pieces first, yielding between them, and refused as soon as the count passes the
 * context by more than the cuts between pieces can add (the exact count decides the rest).
 */
async function refuseFarTooLong(
  request: GenerationRequest,
  model: LlamaModel,
  contextSize: number,
): Promise<void> {
  const texts =
    request.prompt.kind === "chat"
      ? request.prompt.messages.map((message) => ("content" in message ? String(message.content ?? "") : ""))
      : "text" in request.prompt && request.prompt.text !== undefined
        ? [request.prompt.text, request.prompt.suffix ?? ""]
        : [];
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  if (characters < Math.max(4 * piece, contextSize * 8)) return;
  let counted = 0;
  let pieces = 0;
  for (const text of texts) {
    for (let start = 0; start < text.length; start += piece) {
      counted += model.tokenize(text.slice(start, start + piece), false).length;
      pieces += 1;
      // A cut inside a word or a character can add a few tokens: a margin per piece.
      if (counted - piecesMargin * pieces > contextSize) {
        throw new PerchError(
          "context_length_exceeded",
          `The prompt is over ${contextSize} tokens (${characters} characters, counted in pieces); the context of '${request.modelId}' holds ${contextSize}.`,
          { param: request.prompt.kind === "chat" ? "messages" : "prompt", details: { contextSize } },
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
