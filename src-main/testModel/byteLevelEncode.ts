import { byteToUnicode } from "./byteToUnicode.js";

/** Text as GPT-2 byte-level symbols: one printable character per UTF-8 byte. */
export function byteLevelEncode(text: string): string[] {
  return Array.from(Buffer.from(text, "utf8"), (byte) => byteToUnicode[byte]);
}
