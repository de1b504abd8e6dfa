/**
 * Columns a string takes in a terminal: 2 for East Asian wide and fullwidth characters (CJK,
 * Hangul, kana, fullwidth forms) and for emoji shown as pictures, 0 for combining marks, format
 * characters and controls, 1 otherwise — counted per grapheme, so a flag or a family emoji is one
 * picture. A table padded by `length` (UTF-16 units) shifts its columns on such names.
 */
export function displayWidth(text: string): number {
  // ASCII, the usual case: one column each (controls aside).
  if (/^[\x20-\x7e]*$/.test(text)) return text.length;
  let width = 0;
  for (const { segment } of graphemes.segment(text)) width += clusterWidth(segment);
  return width;
}

/** `text` padded with spaces to `width` display columns. */
export function padDisplayEnd(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

function clusterWidth(cluster: string): number {
  // A picture: emoji presentation by default, or asked for with the variation selector U+FE0F.
  if (/\p{Emoji_Presentation}/u.test(cluster)) return 2;
  if (cluster.includes("\uFE0F") && /\p{Extended_Pictographic}/u.test(cluster)) return 2;
  const code = cluster.codePointAt(0) ?? 0;
  if (/^[\p{Cc}\p{Mn}\p{Me}\p{Cf}]+$/u.test(cluster)) return 0;
  return wide.some(([low, high]) => code >= low && code <= high) ? 2 : 1;
}

/** Unicode's East Asian Width W and F blocks (UAX #11), by block: close enough for names. */
const wide: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x2e80, 0x303e], // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
  [0x3041, 0x33ff], // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, enclosed CJK, compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa000, 0xa4cf], // Yi
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms, small form variants
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x16fe0, 0x18aff], // ideographic symbols, Tangut
  [0x1b000, 0x1b2ff], // kana supplement and extensions, Nüshu
  [0x1f200, 0x1f2ff], // enclosed ideographic supplement
  [0x20000, 0x3fffd], // CJK extensions B and later
];
