/**
 * GPT-2's reversible byte-to-character table: printable Latin-1 bytes map to themselves, the rest
 * to code points from U+0100 up, so every token is printable text (a space becomes "Ġ").
 * llama.cpp decodes "gpt2" vocabularies with this same table.
 */
export const byteToUnicode: readonly string[] = (() => {
  const printable = (byte: number): boolean =>
    (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
  const table: string[] = [];
  let next = 0;
  for (let byte = 0; byte < 256; byte++)
    table.push(String.fromCodePoint(printable(byte) ? byte : 256 + next++));
  return table;
})();
