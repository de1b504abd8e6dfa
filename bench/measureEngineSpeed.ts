import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { LoadedModel } from "../src-main/engine/LoadedModel.js";
import { cutTextToTokens } from "../src-main/perf/cutTextToTokens.js";
import { fillerText } from "../src-main/perf/fillerText.js";

/**
 * Engine-level figures: node-llama-cpp driven directly on the already loaded model, on a context
 * of the same shape as the scheduler's (context size, sequences, threads), with a fresh sequence
 * and a unique prompt of exactly `promptTokens` tokens. pp counts until the first token (as the
 * scheduler's TTFT does); tg is the tokens after it. End-of-generation tokens are kept going.
 */
export async function measureEngineSpeed(
  loaded: Pick<LoadedModel, "model">,
  sequence: LlamaContextSequence,
  promptTokens: number,
  generatedTokens: number,
  seed: number,
): Promise<{ pp_tps: number; tg_tps: number; ttft_ms: number; generated: number; cpu_share: number }> {
  const { model } = loaded;
  const tokenizer = {
    tokenize: (text: string) => model.tokenize(text, false, "trimLeadingSpace"),
    detokenize: (tokens: readonly number[]) => model.detokenize(tokens as Token[]),
  };
  // The scheduler's BOS rule for text prompts (LlamaCompletion's), so both sides see the same tokens.
  const bos = model.tokens.shouldPrependBosToken ? model.tokens.bos : null;
  const body = promptTokens - (bos === null ? 0 : 1);
  const text = cutTextToTokens(tokenizer, `Engine${seed} ${fillerText(seed, body * 2 + 32)}`, body);
  const tokens = [...(bos === null ? [] : [bos]), ...tokenizer.tokenize(text)] as Token[];
  await sequence.clearHistory();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const iterator = sequence.evaluate(tokens, { temperature: 0, yieldEogToken: true });
  const first = await iterator.next();
  const firstAt = performance.now();
  let generated = first.done ? 0 : 1;
  while (generated < generatedTokens) {
    const next = await iterator.next();
    if (next.done) break;
    generated += 1;
  }
  const endedAt = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  await iterator.return();
  return {
    cpu_share: (cpu.user + cpu.system) / 1000 / (endedAt - started),
    pp_tps: tokens.length / ((firstAt - started) / 1000),
    tg_tps: (generated - 1) / ((endedAt - firstAt) / 1000),
    ttft_ms: firstAt - started,
    generated,
  };
}
