import { dedent, trimBlankLines } from "../text/dedent.js";
import { fencedParts } from "../text/extractCodeBlocks.js";
import type { CodeAnalyzer } from "./CodeAnalyzer.js";

/** One place in a response that may hold the answer's code. */
export interface CodeSource {
  /**
   * `block_N` (the N-th fenced block, any language tag), `unfenced_N` (the N-th code region of the
   * text outside fences), `joined` (every compiling block and region in order, for answers split
   * over several), `response` (the whole answer), each with `+sanitized` for its sanitized form.
   */
  name: string;
  /** Dedented code (a fenced block inside a list item is indented as a whole). */
  code: string;
  /** As written, blank lines trimmed: a function body keeps its indentation for the body repairs. */
  raw: string;
  /** Whether `code` compiles as a module on its own (a function body does not). */
  compiles: boolean;
}

export interface SourceOptions {
  analyzer: CodeAnalyzer;
  /** Names the tests need from the code (the entry point; MBPP: the names its asserts use). */
  roots: string[];
  /** `stdin`: a whole program (its prints and `input()` stay); `function`: a module under test. */
  style: "function" | "stdin";
}

/**
 * Every candidate source of an answer (reasoning already removed), in the order they appear:
 * fenced blocks and unfenced code regions interleaved, then `joined`, then the whole `response`;
 * each followed by its sanitized form where sanitizing changes it.
 */
export async function findCodeSources(response: string, options: SourceOptions): Promise<CodeSource[]> {
  const answer = withoutInvisibleLineStarts(response);
  const { blocks, segments } = fencedParts(answer);
  const regions = await options.analyzer.regions(segments);
  const text = trimBlankLines(answer.replace(/\r\n?/g, "\n"));
  const parts: Omit<CodeSource, "compiles">[] = [];
  let unfenced = 0;
  for (const [index, segment] of regions.entries()) {
    for (const region of segment) {
      const code = trimBlankLines(region);
      // An answer that is all code is the response itself, not a region of it.
      if (code !== text) parts.push({ name: `unfenced_${++unfenced}`, code, raw: code });
    }
    const block = blocks[index];
    if (block && block.code.trim()) {
      const raw = trimBlankLines(block.code);
      parts.push({ name: `block_${index + 1}`, code: trimBlankLines(dedent(raw)), raw });
    }
  }
  const checks = await options.analyzer.check([...parts.map((part) => part.code), text], { kind: "none" });
  const sources = parts.map((part, index) => ({ ...part, compiles: checks[index].compiles }));
  const compiling = sources.filter((source) => source.compiles);
  if (compiling.length > 1) {
    const joined = compiling.map((part) => part.code).join("\n\n");
    sources.push({ name: "joined", code: joined, raw: joined, compiles: true });
  }
  sources.push({ name: "response", code: text, raw: text, compiles: checks[parts.length].compiles });
  const sanitized = await options.analyzer.sanitize(
    sources.map((source) => source.code),
    options.roots,
    options.style,
  );
  return sources.flatMap((source, index) => {
    const clean = sanitized[index];
    if (clean === null) return [source];
    return [source, { name: `${source.name}+sanitized`, code: clean, raw: clean, compiles: true }];
  });
}

/**
 * A byte-order mark or zero-width character (U+FEFF, U+200B-U+200D, U+2060) at the start of a
 * line is dropped: invisible in the answer, yet Python refuses it ("invalid non-printable
 * character") and it hid a `def` from every "does this define the entry point" check, so a correct
 * answer was nested inside the prompt's def and failed as the model's wrong answer.
 */
function withoutInvisibleLineStarts(text: string): string {
  return text.replace(/^[\uFEFF\u200B-\u200D\u2060]+/gm, "");
}
