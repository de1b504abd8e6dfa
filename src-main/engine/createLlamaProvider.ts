import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";

/**
 * Returns a function that loads the llama.cpp bindings once. Never builds or downloads:
 * the prebuilt binary of the platform is used (Metal on Apple Silicon, CPU elsewhere).
 */
export function createLlamaProvider(options: { gpu: "auto" | false }): () => Promise<Llama> {
  let promise: Promise<Llama> | undefined;
  return () => {
    promise ??= getLlama({
      gpu: options.gpu,
      build: "never",
      progressLogs: false,
      logLevel: LlamaLogLevel.error,
    });
    return promise;
  };
}
