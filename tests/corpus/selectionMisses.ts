import type { CodeAnalyzer } from "../../src-main/evals/benchmarks/code/CodeAnalyzer.js";
import type { CodeCandidate } from "../../src-main/evals/benchmarks/scoreCodeCandidates.js";
import { splitThinking } from "../../src-main/evals/runner/splitThinking.js";
import { codeResponseShapes, type ShapeInput } from "./codeResponseShapes.js";

/** Code compared line by line: indentation tabs as 4 spaces, trailing spaces and blank lines dropped. */
export const normalizedCode = (code: string) =>
  code
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/^[\t ]+/, (indent) => indent.replaceAll("\t", "    ")).trimEnd())
    .filter(Boolean)
    .join("\n");

/**
 * For each shape, the ids whose selected candidates (what the scorer would run, in order) do not
 * include the canonical code itself or its sanitized form: the selection test's whole check,
 * without running anything.
 */
export async function selectionMisses<Item extends { id: string }>(
  items: Item[],
  options: {
    analyzer: CodeAnalyzer;
    input: (item: Item) => ShapeInput;
    roots: (item: Item) => string[];
    candidates: (item: Item, answer: string) => Promise<CodeCandidate[]>;
    /** Every `stride`-th shape per item, rotating with the item's index (every shape stays covered). Defaults to 1: all. */
    stride?: number;
  },
): Promise<Record<string, string[]>> {
  const misses: Record<string, string[]> = {};
  await Promise.all(
    items.map(async (item, index) => {
      const input = options.input(item);
      const [clean] = await options.analyzer.sanitize([input.code], options.roots(item), input.style);
      const wanted = new Set([normalizedCode(input.code), normalizedCode(clean ?? input.code)]);
      const stride = options.stride ?? 1;
      for (const shape of codeResponseShapes.filter((_, at) => (at + index) % stride === 0)) {
        const answer = splitThinking(shape.dress(input)).answer;
        const candidates = await options.candidates(item, answer);
        if (!candidates.some((candidate) => wanted.has(normalizedCode(candidate.code)))) {
          (misses[shape.name] ??= []).push(item.id);
        }
      }
    }),
  );
  return misses;
}
