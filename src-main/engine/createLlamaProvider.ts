import fs from "node:fs";
import os from "node:os";
import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";
import { PerchError } from "../base/PerchError.js";
import { errorMessage } from "../base/describeError.js";
import { createLogger } from "../base/createLogger.js";
import { onLlamaLog } from "./llamaLog.js";

const log = createLogger("engine");

export interface LlamaProviderOptions {
  gpu: "auto" | false;
  /** Starts the bindings. Defaults to node-llama-cpp's `getLlama` with a prebuilt binary, never a build. */
  start?: () => Promise<Llama>;
  /** File descriptors that must be free before the bindings are started. Defaults to `16`. */
  freeDescriptorsNeeded?: number;
}

/**
 * Returns a function that loads the llama.cpp bindings once. Never builds or downloads:
 * the prebuilt binary of the platform is used (Metal on Apple Silicon, CPU elsewhere).
 * A start that fails is not kept: the next call tries again (a moment without file descriptors
 * must not leave every later load failing until a restart). The failure is Perch's engine, not a
 * model: `model_load_failed` with status 503 and a message that says so.
 */
export function createLlamaProvider(options: LlamaProviderOptions): () => Promise<Llama> {
  const start =
    options.start ??
    (() =>
      getLlama({
        gpu: options.gpu,
        build: "never",
        progressLogs: false,
        logLevel: LlamaLogLevel.error,
        logger: onLlamaLog,
      }));
  const startOnce = async (): Promise<Llama> => {
    try {
      // node-llama-cpp forks a process to test the binary and has no 'error' listener on it: a
      // fork without descriptors (EMFILE) would be an uncaught exception. Refused here instead.
      ensureFreeDescriptors(options.freeDescriptorsNeeded ?? 16);
      return await start();
    } catch (error) {
      log.error({ err: error }, "the llama.cpp engine could not start");
      throw new PerchError(
        "model_load_failed",
        `The llama.cpp engine could not start (${errorMessage(error)}). This is Perch's side, not the model's; the next request tries again.`,
        { status: 503 },
      );
    }
  };
  let promise: Promise<Llama> | undefined;
  return () => {
    if (promise) return promise;
    const starting = startOnce();
    promise = starting;
    starting.catch(() => {
      if (promise === starting) promise = undefined;
    });
    return starting;
  };
}

/** Throws EMFILE/ENFILE when fewer than `count` file descriptors can be opened now. */
function ensureFreeDescriptors(count: number): void {
  const opened: number[] = [];
  try {
    for (let index = 0; index < count; index += 1) opened.push(fs.openSync(os.devNull, "r"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EMFILE" || code === "ENFILE")
      throw new Error(`${code}: too many open files; fewer than ${count} file descriptors are free`, {
        cause: error,
      });
    throw error;
  } finally {
    for (const fd of opened) fs.closeSync(fd);
  }
}
