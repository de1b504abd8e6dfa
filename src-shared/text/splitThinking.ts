/** A raw model output split into its reasoning and the answer the scorer should see. */
export interface SplitOutput {
  /** The reasoning text; null when the output had no reasoning block. */
  reasoning: string | null;
  /** The output without reasoning; empty when reasoning ran out of tokens before any answer. */
  answer: string;
}

/*
 * Reasoning formats seen in the wild. `open` may be absent from the output when the chat template
 * already opened the block in the prompt (Qwen3 and DeepSeek-R1 templates do), so a lone closing
 * tag also counts: everything before it is reasoning.
 */
const tagPairs: ReadonlyArray<{ open: string; close: string }> = [
  { open: "<think>", close: "</think>" },
  { open: "<thinking>", close: "</thinking>" },
  { open: "<reasoning>", close: "</reasoning>" },
  { open: "[THINK]", close: "[/THINK]" },
  { open: "◁think▷", close: "◁/think▷" },
  { open: "<|begin_of_thought|>", close: "<|end_of_thought|>" },
];

// gpt-oss "harmony": analysis channel first, the answer in the final channel.
const harmonyFinal = /<\|channel\|>\s*final\s*<\|message\|>/;
const harmonyAnalysis = /<\|channel\|>\s*analysis\s*<\|message\|>/;

/**
 * Removes reasoning from a model output before answer extraction. Handles `<think>` blocks (also
 * several, unclosed at the end of a truncated output, or opened by the prompt), the other tag
 * pairs above, and harmony channels.
 */
export function splitThinking(raw: string): SplitOutput {
  const harmony = splitHarmony(raw);
  if (harmony) return harmony;
  for (const pair of tagPairs) {
    const split = splitTagPair(raw, pair.open, pair.close);
    if (split) return split;
  }
  return { reasoning: null, answer: raw };
}

/** True when the output contains reasoning in any known format (the probe's test). */
export function hasThinking(raw: string): boolean {
  return splitThinking(raw).reasoning !== null;
}

function splitTagPair(raw: string, open: string, close: string): SplitOutput | null {
  const openAt = raw.indexOf(open);
  const closeAt = raw.indexOf(close);
  if (openAt < 0 && closeAt < 0) return null;
  const reasoning: string[] = [];
  let rest = raw;
  // A closing tag before any opening one: the prompt opened the block.
  if (closeAt >= 0 && (openAt < 0 || closeAt < openAt)) {
    reasoning.push(rest.slice(0, closeAt));
    rest = rest.slice(closeAt + close.length);
  }
  let answer = "";
  for (;;) {
    const start = rest.indexOf(open);
    if (start < 0) {
      answer += rest;
      break;
    }
    answer += rest.slice(0, start);
    const end = rest.indexOf(close, start + open.length);
    if (end < 0) {
      // Unclosed: the generation stopped while still reasoning.
      reasoning.push(rest.slice(start + open.length));
      break;
    }
    reasoning.push(rest.slice(start + open.length, end));
    rest = rest.slice(end + close.length);
  }
  return { reasoning: reasoning.join("\n").trim(), answer: answer.trim() };
}

function splitHarmony(raw: string): SplitOutput | null {
  const analysis = harmonyAnalysis.exec(raw);
  const final = harmonyFinal.exec(raw);
  if (!analysis && !final) return null;
  const clean = (text: string) => text.replace(/<\|(?:end|return|start|call)\|>(?:assistant)?/g, "").trim();
  if (!final) return { reasoning: clean(raw.slice(analysis!.index + analysis![0].length)), answer: "" };
  const reasoningEnd = final.index;
  const reasoning = analysis ? clean(raw.slice(analysis.index + analysis[0].length, reasoningEnd)) : "";
  return { reasoning, answer: clean(raw.slice(final.index + final[0].length)) };
}
