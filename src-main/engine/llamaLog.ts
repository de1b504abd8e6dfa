import { LlamaLogLevel } from "node-llama-cpp";
import { createLogger } from "../base/createLogger.js";

const log = createLogger("llama.cpp");
/** How many of llama.cpp's latest lines are kept for the error message of a failed load. */
const kept = 20;
const recent: { at: number; message: string }[] = [];

/**
 * node-llama-cpp's `logger`: llama.cpp's lines go to Perch's log (stderr and the log file) instead
 * of only to stderr, and the latest are kept so a failed load can say why ("tensor … data is not
 * within the file bounds") where node-llama-cpp says only "Failed to load model".
 */
export function onLlamaLog(level: LlamaLogLevel, message: string): void {
  const text = message.trim();
  if (!text) return;
  recent.push({ at: Date.now(), message: text });
  if (recent.length > kept) recent.shift();
  if (level === LlamaLogLevel.fatal || level === LlamaLogLevel.error) log.error(text);
  else if (level === LlamaLogLevel.warn) log.warn(text);
  else log.debug(text);
}

/**
 * llama.cpp's lines logged since `since` (ms), oldest first, at most `count`. Lines arrive through
 * the event loop: this waits one turn so the ones a failing call logged are in.
 */
export async function llamaLinesSince(since: number, count = 3): Promise<string[]> {
  await new Promise((resolve) => setImmediate(resolve));
  return recent
    .filter((line) => line.at >= since)
    .map((line) => line.message)
    .slice(-count);
}
