import { escapeRegExp } from "./escapeRegExp.js";

/** A fenced block of a markdown response. */
export interface CodeBlock {
  /** Lower-cased info string (`python`, `py`, `` for a bare fence). */
  language: string;
  code: string;
  /** False when the response ended inside the block (a truncated or malformed fence). */
  closed: boolean;
}

const openingFence = /(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.#-]*)[ \t]*$/;

/**
 * Every fenced block, also malformed ones: a fence after prose on the same line
 * (`Here it is: ```python`), code touching the closing fence (`return x```), a new fence with a
 * language while a block is still open (closes it), and a block the response never closed.
 */
export function extractCodeBlocks(text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let open: { fence: string; language: string; lines: string[] } | null = null;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (!open) {
      const match = openingFence.exec(line);
      if (match) open = { fence: match[1], language: match[2].toLowerCase(), lines: [] };
      continue;
    }
    const trimmed = line.trim();
    const fenceChar = open.fence[0];
    const reopened = openingFence.exec(trimmed);
    if (reopened && trimmed.startsWith(fenceChar.repeat(3)) && reopened[2] !== "") {
      blocks.push({ language: open.language, code: open.lines.join("\n"), closed: true });
      open = { fence: reopened[1], language: reopened[2].toLowerCase(), lines: [] };
    } else if (trimmed.length > 0 && /^[`~]+$/.test(trimmed) && trimmed[0] === fenceChar) {
      blocks.push({ language: open.language, code: open.lines.join("\n"), closed: true });
      open = null;
    } else if (trimmed.endsWith(open.fence) && trimmed.length > open.fence.length) {
      open.lines.push(line.slice(0, line.lastIndexOf(open.fence)));
      blocks.push({ language: open.language, code: open.lines.join("\n"), closed: true });
      open = null;
    } else {
      open.lines.push(line);
    }
  }
  if (open) blocks.push({ language: open.language, code: open.lines.join("\n"), closed: false });
  return blocks;
}

const pythonLanguages = new Set(["python", "py", "python3", "py3", ""]);

/**
 * The block most likely to be the answer: the last Python (or bare) block that mentions
 * `mustMention` (the function under test), else the last Python or bare block, else the last
 * block of any language. Null when the response has no fence.
 */
export function pickCodeBlock(text: string, mustMention?: string): CodeBlock | null {
  const blocks = extractCodeBlocks(text).filter((block) => block.code.trim().length > 0);
  const python = blocks.filter((block) => pythonLanguages.has(block.language));
  const mentioning = mustMention
    ? python.filter((block) => new RegExp(`\\b${escapeRegExp(mustMention)}\\b`).test(block.code))
    : [];
  return mentioning.at(-1) ?? python.at(-1) ?? blocks.at(-1) ?? null;
}
