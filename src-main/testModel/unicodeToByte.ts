import { byteToUnicode } from "./byteToUnicode.js";

/** The inverse of {@link byteToUnicode}. */
export const unicodeToByte: ReadonlyMap<string, number> = new Map(
  byteToUnicode.map((char, byte) => [char, byte]),
);
