import crypto from "node:crypto";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A fresh call id in the style of the hosted APIs: the prefix and 24 random letters and digits. */
export function newToolCallId(prefix = "call_"): string {
  const bytes = crypto.randomBytes(24);
  let id = prefix;
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}
