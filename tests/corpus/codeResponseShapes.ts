/**
 * How chat and reasoning models really dress a code answer, as functions from a solution to a
 * response. Each shape is modelled on replies seen from chat models (GPT-4-class, Claude, Qwen,
 * Llama, DeepSeek-R1-style reasoners): fences with other tags, several blocks, usage and tests
 * after the code, prose around it, `<think>` sections, CRLF, tabs, unclosed fences, headings and
 * numbered steps between blocks. Applied to every canonical solution (and to wrong ones) by the
 * shape tests and by `npm run bench -- evals`.
 */
export interface ShapeInput {
  /** The solution, LF line ends: a module (function style) or a whole program (stdin style). */
  code: string;
  style: "function" | "stdin";
  /** Function style: one line calling the function (`print(f(1))`). Stdin: one sample input. */
  usage: string;
  /** Function style: assert lines calling the function. Stdin: the sample's expected output. */
  asserts: string[];
}

export interface ResponseShape {
  name: string;
  dress: (input: ShapeInput) => string;
}

export const fence = (code: string, tag = "python", marks = "```") => `${marks}${tag}\n${code}\n${marks}`;

/** The code split before its last top-level `def`/`class` (imports and helpers first). */
function splitCode(code: string): [string, string] {
  const lines = code.split("\n");
  let at = -1;
  lines.forEach((line, index) => {
    if (/^(def|class)\s/.test(line) && !/^@/.test(lines[index - 1] ?? "")) at = index;
  });
  if (at <= 0) return ["", code];
  return [lines.slice(0, at).join("\n").trim(), lines.slice(at).join("\n")];
}

/**
 * Indentation as tabs, one per 4 spaces. Code with an indent that is not a multiple of 4 stays as
 * it is: half-converted it would be a real TabError, not the same solution.
 */
function tabbed(code: string): string {
  const lines = code.split("\n");
  if (lines.some((line) => line.trim() && /^ */.exec(line)![0].length % 4 !== 0)) return code;
  return lines
    .map((line) => line.replace(/^(?: {4})+/, (indent) => "\t".repeat(indent.length / 4)))
    .join("\n");
}

/** What follows the solution as an example: a call, or a sample run of the program. */
function usageBlock(input: ShapeInput): string {
  if (input.style === "stdin") {
    return `### Example\n\nInput:\n${fence(input.usage, "")}\n\nOutput:\n${fence(input.asserts.join("\n"), "")}`;
  }
  return `### Example usage\n\n${fence(input.usage)}`;
}

function testsBlock(input: ShapeInput): string {
  if (input.style === "stdin") {
    return `You can check it with:\n\n${fence(`echo '${input.usage.trim()}' | python3 solution.py`, "bash")}`;
  }
  return `Here are some tests:\n\n${fence(input.asserts.join("\n"))}`;
}

/** The solution followed, in the same block, by example code (function style only). */
function withInline(input: ShapeInput, kind: "usage" | "asserts" | "main"): string {
  if (input.style === "stdin") return `# Read the input, print the answer\n${input.code}`;
  if (kind === "usage") return `${input.code}\n\n# Example usage\n${input.usage}`;
  if (kind === "asserts") return `${input.code}\n\n# Tests\n${input.asserts.join("\n")}`;
  return `${input.code}\n\n\nif __name__ == "__main__":\n    ${input.usage}`;
}

export const codeResponseShapes: ResponseShape[] = [
  { name: "fenced_python", dress: (input) => fence(input.code) },
  { name: "fenced_Python_tag", dress: (input) => fence(input.code, "Python") },
  { name: "fenced_py_tag", dress: (input) => fence(input.code, "py") },
  { name: "fenced_python3_tag", dress: (input) => fence(input.code, "python3") },
  { name: "fenced_no_tag", dress: (input) => fence(input.code, "") },
  { name: "tilde_fence", dress: (input) => fence(input.code, "python", "~~~") },
  { name: "four_backticks", dress: (input) => fence(input.code, "python", "````") },
  {
    name: "prose_before_after",
    dress: (input) =>
      `Sure! Here's a clean implementation:\n\n${fence(input.code)}\n\nThis runs in linear time and handles the edge cases (empty input, duplicates).`,
  },
  {
    name: "fence_after_prose_same_line",
    dress: (input) => `Here is the solution: ${fence(input.code)}\nLet me know if you need changes.`,
  },
  {
    name: "usage_block_after",
    dress: (input) => `${fence(input.code)}\n\n${usageBlock(input)}`,
  },
  {
    name: "tests_block_after",
    dress: (input) => `${fence(input.code)}\n\n${testsBlock(input)}`,
  },
  {
    name: "tests_block_first",
    dress: (input) =>
      `Let's start from the expected behaviour.\n\n${testsBlock(input)}\n\nNow the implementation:\n\n${fence(input.code)}`,
  },
  {
    name: "output_block_after",
    dress: (input) =>
      `${fence(input.code, "Python")}\n\nRunning the example:\n\n${fence(input.usage)}\n\nOutput:\n\n${fence(input.style === "stdin" ? input.asserts.join("\n") : "True", "text")}`,
  },
  { name: "inline_usage", dress: (input) => fence(withInline(input, "usage")) },
  {
    name: "inline_asserts",
    dress: (input) => `Solution with tests:\n\n${fence(withInline(input, "asserts"))}`,
  },
  { name: "main_block", dress: (input) => fence(withInline(input, "main"), "py") },
  {
    name: "numbered_steps_split",
    dress: (input) => {
      const [head, rest] = splitCode(input.code);
      const first = head
        ? `1. First, the imports and helpers:\n\n${fence(head)}\n\n`
        : "1. No imports are needed.\n\n";
      return `${first}2. Then the main logic:\n\n${fence(rest)}\n\n3. Complexity: O(n) time, O(1) extra space.`;
    },
  },
  {
    name: "markdown_headings",
    dress: (input) =>
      `## Approach\n\nWe go through the input once.\n\n## Solution\n\n${fence(input.code)}\n\n## Explanation\n\n- **Step 1**: read the input.\n- **Step 2**: compute the answer.\n\n## Complexity\n\n*Time*: O(n)`,
  },
  {
    name: "think_then_fenced",
    dress: (input) =>
      `<think>\nLet me think. A first draft:\n${fence("def draft():\n    return None")}\nNo, that is wrong; write it properly.\n</think>\n\n${fence(input.code)}`,
  },
  {
    name: "think_then_unfenced",
    dress: (input) =>
      `<think>The user wants code. I'll answer without a fence.</think>\nHere is the code:\n\n${input.code}\n`,
  },
  {
    name: "prose_then_unfenced",
    dress: (input) =>
      `Sure! Below is the code:\n\n${input.code}\n\nThis solution handles every case described in the problem.`,
  },
  {
    name: "unfenced_with_usage",
    dress: (input) =>
      input.style === "stdin"
        ? `Solution:\n\n${input.code}\n\nFor the sample input it prints the expected output.`
        : `Here is the function:\n\n${input.code}\n\nExample:\n\n${input.usage}\n\nThat's it!`,
  },
  {
    name: "crlf_line_ends",
    dress: (input) => `Here you go:\r\n\r\n${fence(input.code)}\r\n\r\nDone.`.replace(/\r?\n/g, "\r\n"),
  },
  { name: "tab_indentation", dress: (input) => fence(tabbed(input.code)) },
  {
    name: "unclosed_fence",
    dress: (input) => `Here is my solution:\n\n\`\`\`python\n${input.code}\n`,
  },
  {
    name: "indented_in_list",
    dress: (input) =>
      `1. Implement it:\n\n${fence(input.code)
        .split("\n")
        .map((line) => (line ? `   ${line}` : line))
        .join("\n")}\n\n2. Run the tests.`,
  },
];

/** Answers without any code: every shape of them must score `no_code`. */
export const noCodeResponses: { name: string; response: string }[] = [
  { name: "refusal", response: "I'm sorry, but I can't help with that request." },
  { name: "prose_only", response: "You should sort the numbers first and then compare neighbours." },
  { name: "empty", response: "" },
  {
    name: "reasoning_never_finished",
    response: "<think>\nThe function should loop...\n```python\ndef f(x):\n    return x\n```\nHmm, wait",
  },
];
