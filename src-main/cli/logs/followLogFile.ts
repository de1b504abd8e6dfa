import fs from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Reads complete lines appended to the file `link` points at, from `offset`, every `intervalMs`,
 * following the link to a new file when the log rotates. Stops when `signal` aborts.
 */
export async function followLogFile(
  link: string,
  offset: number,
  onLine: (line: string) => void,
  signal: AbortSignal,
  intervalMs = 200,
): Promise<void> {
  let file = safeRealpath(link);
  let position = offset;
  let partial = "";
  while (!signal.aborted) {
    const current = safeRealpath(link);
    if (current && current !== file) {
      // Rotated: finish the old file, then start the new one from its beginning.
      if (file) drain(file, position, (text) => (partial = emit(partial + text, onLine)));
      file = current;
      position = 0;
    }
    if (file) position = drain(file, position, (text) => (partial = emit(partial + text, onLine)));
    // Its abort listener goes when the wait ends (one added per wait and kept leaked before).
    await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
  }
}

function drain(file: string, position: number, onText: (text: string) => void): number {
  let size: number;
  try {
    size = fs.statSync(file).size;
  } catch {
    return position;
  }
  if (size < position) position = 0; // truncated
  if (size === position) return position;
  const handle = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(size - position);
    const read = fs.readSync(handle, buffer, 0, buffer.length, position);
    onText(buffer.subarray(0, read).toString("utf8"));
    return position + read;
  } finally {
    fs.closeSync(handle);
  }
}

function emit(text: string, onLine: (line: string) => void): string {
  const lines = text.split("\n");
  const rest = lines.pop() ?? "";
  for (const line of lines) if (line.trim()) onLine(line);
  return rest;
}

function safeRealpath(file: string): string | null {
  try {
    return fs.realpathSync(file);
  } catch {
    return null;
  }
}
