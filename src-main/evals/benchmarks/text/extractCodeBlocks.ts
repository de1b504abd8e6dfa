/** A fenced block of a markdown response. */
export interface CodeBlock {
  /** Lower-cased info string (`python`, `py`, `` for a bare fence). */
  language: string;
  code: string;
  /** False when the response ended inside the block (a truncated or malformed fence). */
  closed: boolean;
}

const openingFence = /(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+.#-]*)[ \t]*$/;

/** A response cut at its fences: `segments[k]` is the text before block `k`, the last one after all. */
export interface FencedParts {
  blocks: CodeBlock[];
  segments: string[];
}

/**
 * Every fenced block, also malformed ones: a fence after prose on the same line
 * (`Here it is: ```python`), code touching the closing fence (`return x```), a new fence with a
 * language while a block is still open (closes it), and a block the response never closed.
 */
export function extractCodeBlocks(text: string): CodeBlock[] {
  return fencedParts(text).blocks;
}

/** The fenced blocks and the text around them (CRLF read as LF). */
export function fencedParts(text: string): FencedParts {
  const blocks: CodeBlock[] = [];
  const segments: string[] = [];
  let outside: string[] = [];
  let open: { fence: string; language: string; lines: string[] } | null = null;
  const close = (closed: boolean) => {
    blocks.push({ language: open!.language, code: open!.lines.join("\n"), closed });
    open = null;
  };
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (!open) {
      const match = openingFence.exec(line);
      if (match) {
        outside.push(line.slice(0, match.index));
        segments.push(outside.join("\n"));
        outside = [];
        open = { fence: match[1], language: match[2].toLowerCase(), lines: [] };
      } else outside.push(line);
      continue;
    }
    const current: { fence: string; language: string; lines: string[] } = open;
    const trimmed = line.trim();
    const fenceChar = current.fence[0];
    const reopened = openingFence.exec(trimmed);
    if (reopened && trimmed.startsWith(fenceChar.repeat(3)) && reopened[2] !== "") {
      close(true);
      segments.push("");
      open = { fence: reopened[1], language: reopened[2].toLowerCase(), lines: [] };
    } else if (trimmed.length > 0 && /^[`~]+$/.test(trimmed) && trimmed[0] === fenceChar) {
      close(true);
    } else if (trimmed.endsWith(current.fence) && trimmed.length > current.fence.length) {
      current.lines.push(line.slice(0, line.lastIndexOf(current.fence)));
      close(true);
    } else {
      current.lines.push(line);
    }
  }
  if (open) close(false);
  segments.push(outside.join("\n"));
  return { blocks, segments };
}
