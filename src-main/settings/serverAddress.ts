import fs from "node:fs";
import { z } from "zod";
import { isProcessAlive } from "../base/isProcessAlive.js";
import { perchPaths } from "../base/perchPaths.js";
import { writeJsonAtomic } from "../storage/writeJsonAtomic.js";

const serverAddressSchema = z.object({
  /** Base URL as the server bound it, e.g. `http://127.0.0.1:18710` (`0.0.0.0` is not rewritten). */
  url: z.string().url(),
  pid: z.number().int().positive(),
  started_at: z.string(),
});
export type ServerAddress = z.infer<typeof serverAddressSchema>;

/**
 * Records where this process's server listens (`<base>/server.json`), so the CLI finds a server
 * started on another port (`perch serve --port N`, the app) without being told. A file whose
 * process is gone is ignored by readers and replaced by the next server.
 */
export async function recordServerAddress(basePath: string, url: string): Promise<void> {
  const address: ServerAddress = { url, pid: process.pid, started_at: new Date().toISOString() };
  await writeJsonAtomic(perchPaths(basePath).serverAddress, address);
}

/** Removes the record if it is this process's (another server may have started on the base since). */
export function forgetServerAddress(basePath: string): void {
  const file = perchPaths(basePath).serverAddress;
  if (readRecord(file)?.pid === process.pid) fs.rmSync(file, { force: true });
}

/** The address of the base path's running server, or null (no record, a damaged one, its process gone). */
export function readServerAddress(basePath: string): ServerAddress | null {
  const record = readRecord(perchPaths(basePath).serverAddress);
  return record && isProcessAlive(record.pid) ? record : null;
}

function readRecord(file: string): ServerAddress | null {
  try {
    const parsed = serverAddressSchema.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
