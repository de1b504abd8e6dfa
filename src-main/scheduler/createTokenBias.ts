import { TokenBias, type LlamaModel, type Token } from "node-llama-cpp";
import { PerchError } from "../base/PerchError.js";

/** OpenAI's floor: a bias of -100 or less bans the token. */
const banned = -100;

/** Tokens in the model's vocabulary (from the GGUF metadata; 0 when it does not say). */
export function vocabularySize(model: LlamaModel): number {
  const metadata = model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: { tokens?: unknown[] } } };
  return metadata.tokenizer?.ggml?.tokens?.length ?? 0;
}

/**
 * The logit bias of a request (OpenAI `logit_bias`: token id → value added to its logit, like
 * llama.cpp's logit-bias sampler), merged with a base bias (`ignoreEos`'s ban on end-of-generation
 * tokens) that wins for the tokens it names: llama-server applies `ignore_eos` after `logit_bias`,
 * so a request cannot bias an end token back in. End-of-generation tokens may be biased too:
 * `TokenBias.set` skips them, so the map node-llama-cpp hands to the sampler is filled directly
 * (as `createEndOfGenerationBias` does).
 */
export function createTokenBias(
  model: LlamaModel,
  logitBias: Record<number, number>,
  base?: TokenBias,
): TokenBias {
  const size = vocabularySize(model);
  const bias = new TokenBias(model.tokenizer);
  const biases = (bias as unknown as { _biases: Map<Token, number> })._biases;
  for (const [key, value] of Object.entries(logitBias)) {
    const token = Number(key);
    if (!Number.isInteger(token) || token < 0 || token >= size) {
      throw new PerchError(
        "invalid_request",
        `logit_bias names token '${key}', which is not in the model's vocabulary (0 to ${size - 1}).`,
        { param: "logit_bias" },
      );
    }
    biases.set(token as Token, value <= banned ? -Infinity : value);
  }
  if (base)
    for (const [token, value] of (base as unknown as { _biases: Map<Token, number> })._biases)
      biases.set(token, value);
  return bias;
}
