import fs from "node:fs/promises";
import path from "node:path";
import writeFileAtomic from "write-file-atomic";
import { PerchError } from "../base/PerchError.js";
import { fileWriteQueue } from "./KeyedQueue.js";
import { errorMessage } from "../base/describeError.js";

/**
 * Writes JSON so that a crash leaves either the old or the new file, never a torn one:
 * temp file in the same folder, fsync, rename (write-file-atomic). Serialized per path. The file
 * is readable by its owner only (0600).
 */
export async function writeJsonAtomic(filePath: string, value: unknown): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  await fileWriteQueue.run(filePath, async () => {
    try {
      await fs.mkdir(path.dirname(filePath), { recursive: true });
      // Owner-only: settings.json holds the API key, results hold model outputs.
      await writeFileAtomic(filePath, text, { fsync: true, encoding: "utf8", mode: 0o600 });
    } catch (error) {
      throw new PerchError(
        "storage_error",
        `Could not write ${path.basename(filePath)}: ${errorMessage(error)}`,
      );
    }
  });
}
