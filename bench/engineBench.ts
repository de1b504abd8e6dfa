import fs from "node:fs";
import path from "node:path";
import { getLlama, LlamaLogLevel } from "node-llama-cpp";
import type { BenchSection } from "./BenchSection.js";
import { benchModels } from "./benchModels.js";

/** Single-stream engine figures straight from node-llama-cpp: the baseline every other layer is compared with. */
export async function measureEngine(
  modelPath: string,
  options: { promptTokens: number; generateTokens: number; threads: number },
) {
  const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: LlamaLogLevel.error,
    progressLogs: false,
  });
  const loadStarted = performance.now();
  const model = await llama.loadModel({ modelPath });
  const loadMs = performance.now() - loadStarted;
  const context = await model.createContext({
    contextSize: Math.max(1024, options.promptTokens + options.generateTokens + 16),
    threads: options.threads,
  });
  try {
    const sequence = context.getSequence();
    const vocabulary = model.tokenize(
      "the quick brown fox jumps over the lazy dog while def main(): return 42 ",
    );
    const prompt = Array.from({ length: options.promptTokens }, (_, i) => vocabulary[i % vocabulary.length]);
    const ppStarted = performance.now();
    const iterator = sequence.evaluate(prompt, { temperature: 0 });
    const first = await iterator.next();
    const ppMs = performance.now() - ppStarted;
    let generated = first.done ? 0 : 1;
    const tgStarted = performance.now();
    while (generated < options.generateTokens) {
      const next = await iterator.next();
      if (next.done) break;
      generated += 1;
    }
    const tgMs = performance.now() - tgStarted;
    await iterator.return?.();
    return {
      model: path.basename(modelPath),
      file_bytes: fs.statSync(modelPath).size,
      load_ms: loadMs,
      prompt_tokens: options.promptTokens,
      pp_tps: options.promptTokens / (ppMs / 1000),
      generated_tokens: generated,
      tg_tps: (generated - 1) / (tgMs / 1000),
    };
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

export const engineSection: BenchSection = {
  name: "engine",
  run: async () => {
    const models = await benchModels();
    const rows = [];
    for (const file of [models.main, models.realistic].filter((f): f is string => Boolean(f))) {
      rows.push(await measureEngine(file, { promptTokens: 512, generateTokens: 128, threads: 1 }));
    }
    return {
      json: {
        threads: 1,
        rows,
        realistic_model: models.realistic ?? "not generated (perch models make-test-model --realistic)",
      },
      table: [{ title: "Engine (node-llama-cpp direct, 1 thread, 512 prompt / 128 generated)", rows }],
    };
  },
};
