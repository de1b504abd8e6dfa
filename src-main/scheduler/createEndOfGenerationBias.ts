import { TokenBias, type LlamaModel, type Token } from "node-llama-cpp";

/**
 * A bias that forbids every end-of-generation token, for requests that must run to `maxTokens`
 * (performance runs). llama.cpp's `--ignore-eos` does the same with a -inf logit bias.
 */
export function createEndOfGenerationBias(model: LlamaModel): TokenBias {
  const bias = new TokenBias(model.tokenizer);
  const metadata = model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: { tokens?: unknown[] } } };
  const vocabularySize = metadata.tokenizer?.ggml?.tokens?.length ?? 0;
  const candidates = new Set<Token>();
  for (let id = 0; id < vocabularySize; id++) candidates.add(id as Token);
  // Without the vocabulary in the metadata, the named special tokens are what is known.
  for (const token of [model.tokens.eos, model.tokens.eot]) if (token !== null) candidates.add(token);
  for (const token of candidates) if (model.isEogToken(token)) bias.set(token, "never");
  return bias;
}
