import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** File in the base folder holding the per-install random salt (created once, never rotated). */
export const ownerSaltFileName = "community_owner_salt";

/**
 * The per-install owner hash: sha256 of a random salt created on first use. It lets the
 * community site group one install's uploads, yet contains nothing about the machine or the user
 * (no host name, user name or hardware id goes into it), so it cannot be linked to anyone.
 * Concurrent first calls agree: the salt file is created exclusively and re-read on a race.
 */
export async function readOwnerHash(basePath: string): Promise<string> {
  const file = path.join(basePath, ownerSaltFileName);
  let salt = await readSalt(file);
  if (!salt) {
    await fs.mkdir(basePath, { recursive: true });
    const fresh = crypto.randomBytes(32).toString("hex");
    try {
      await fs.writeFile(file, `${fresh}\n`, { flag: "wx", mode: 0o600 });
      salt = fresh;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      salt = await readSalt(file);
      if (!salt) throw new Error(`${ownerSaltFileName} exists but holds no salt`, { cause: error });
    }
  }
  return crypto.createHash("sha256").update(`perch-owner-v1:${salt}`).digest("hex");
}

async function readSalt(file: string): Promise<string | undefined> {
  const text = await fs.readFile(file, "utf8").catch(() => undefined);
  const salt = text?.trim();
  return salt && /^[0-9a-f]{64}$/.test(salt) ? salt : undefined;
}
