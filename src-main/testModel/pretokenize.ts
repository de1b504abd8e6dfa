/**
 * Qwen2's pre-tokenizer split (llama.cpp pre type "qwen2"): contractions, words with one leading
 * non-letter, single digits, punctuation runs, newlines and spaces. Training and encoding split
 * text exactly the way llama.cpp will when it loads the model.
 */
const qwen2Split =
  /(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/gu;

export function pretokenize(text: string): string[] {
  return text.match(qwen2Split) ?? [];
}
