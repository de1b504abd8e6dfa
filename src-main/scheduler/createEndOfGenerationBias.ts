import { TokenBias, type LlamaModel, type Token } from "node-llama-cpp";

/**
 * A bias that forbids every end-of-generation token, for requests that must run to `maxTokens`
 * (performance runs), like llama.cpp's `--ignore-eos` (a -inf logit bias).
 */
export function createEndOfGenerationBias(model: LlamaModel): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  const metadata = model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: { tokens?: unknown[] } } };
  const vocabularySize = metadata.tokenizer?.ggml?.tokens?.length ?? 0;
  const candidates = new Set<Token>();
  for (let id = 0; id < vocabularySize; id++) candidates.add(id as Token);
  // Without the vocabulary in the metadata, the named special tokens are what is known.
  for (const token of [model.tokens.eos, model.tokens.eot]) if (token !== null) candidates.add(token);
  // `TokenBias.set` deliberately skips end-of-generation tokens, which are exactly the ones to
  // forbid here, so the map node-llama-cpp hands to the sampler (3.21.1) is filled directly.
  const biases = (bias as unknown as { _biases: Map<Token, number> })._biases;
  for (const token of candidates) if (model.isEogToken(token)) biases.set(token, -Infinity);
  return bias;
}
