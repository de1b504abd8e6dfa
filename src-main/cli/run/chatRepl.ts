import fs from "node:fs";
import readline from "node:readline";
import { type ChatEndpoint, type ChatMessage, type ChatReply, streamChat } from "./streamChat.js";
import { errorMessage } from "../../base/describeError.js";
import { colorsWanted } from "../../base/createLogger.js";
import { PerchError } from "../../base/PerchError.js";
import { dropOldestTurns } from "./dropOldestTurns.js";

const dim = (text: string) => `\x1b[2m${text}\x1b[22m`;

export interface ChatReplOptions {
  endpoint: ChatEndpoint;
  model: string;
  /** OpenAI `response_format` sent with every message. Defaults to none (free text). */
  responseFormat?: unknown;
  /** File keeping typed lines across sessions (up-arrow history). */
  historyFile?: string;
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: NodeJS.WritableStream & { isTTY?: boolean };
}

const help =
  'Type a message (""" starts and ends one of several lines; a paste is one message). ' +
  "/clear forgets the conversation, /bye exits. Ctrl-C stops a reply.\n";
const commands = "/clear, /bye (or /exit), /help (or /?)";

/** A line that is a command: a slash and a word (`/etc/hosts is…` is a message). */
const commandLine = /^\/[A-Za-z?]+(?:\s|$)/;

/**
 * The interactive chat of `perch run`: streams each reply (reasoning dimmed), keeps the
 * conversation, Ctrl-C stops the reply in progress, and at the prompt a second Ctrl-C (or /bye,
 * or end of input) exits. Several lines make one message, as in Ollama's REPL: text pasted into
 * a terminal (bracketed paste) and sent with Enter, or typed between `"""` and `"""`.
 */
export async function chatRepl(options: ChatReplOptions): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const styled = Boolean(output.isTTY) && colorsWanted();
  const history = readHistory(options.historyFile);
  const rl = readline.createInterface({
    input,
    output,
    terminal: Boolean(input.isTTY && output.isTTY),
    history,
    historySize: 1000,
    removeHistoryDuplicates: true,
    prompt: ">>> ",
  });
  const messages: ChatMessage[] = [];
  let reply: AbortController | null = null;
  let interruptedAtPrompt = false;
  const queued: string[] = [];
  let toldOfDrops = false;
  const note = (text: string) => output.write(`${styled ? dim(`(${text})`) : `(${text})`}\n`);

  const interrupt = () => {
    if (reply) {
      reply.abort();
      return;
    }
    if (interruptedAtPrompt) {
      rl.close();
      return;
    }
    interruptedAtPrompt = true;
    output.write("\n(Ctrl-C again or /bye to exit)\n");
    rl.prompt();
  };
  rl.on("SIGINT", interrupt);
  const onProcessSigint = () => interrupt();
  process.on("SIGINT", onProcessSigint);

  const ask = async (line: string): Promise<void> => {
    const text = line.trim();
    if (!text) return;
    if (text === "/bye" || text === "/exit") {
      rl.close();
      return;
    }
    if (text === "/clear") {
      messages.length = 0;
      toldOfDrops = false;
      output.write("(conversation cleared)\n");
      return;
    }
    if (text === "/help" || text === "/?") {
      output.write(help);
      return;
    }
    if (commandLine.test(text)) {
      output.write(`Unknown command '${text.split(/\s/)[0]}'. The commands: ${commands}.\n`);
      return;
    }
    // What the conversation was: a message that fails leaves it as it was, oldest turns included.
    const before = [...messages];
    messages.push({ role: "user", content: text });
    reply = new AbortController();
    let thinking = false;
    try {
      let result: ChatReply | undefined;
      while (!result) {
        try {
          result = await streamChat(
            options.endpoint,
            {
              model: options.model,
              messages,
              ...(options.responseFormat ? { response_format: options.responseFormat } : {}),
            },
            {
              onReasoning: (piece) => {
                thinking = true;
                output.write(styled ? dim(piece) : piece);
              },
              onText: (piece) => {
                if (thinking) output.write("\n\n");
                thinking = false;
                output.write(piece);
              },
            },
            reply.signal,
          );
        } catch (error) {
          // A conversation grown past the context goes on without its oldest turns (as Ollama's).
          if (!dropOldestTurns(messages, error)) throw error;
          if (!toldOfDrops)
            note(
              "The conversation outgrew the model's context: its oldest messages are left out. /clear starts afresh.",
            );
          toldOfDrops = true;
        }
      }
      output.write("\n");
      if (result.stopped) note("stopped");
      else if (result.cut)
        note(
          "cut: the context is full; the next message leaves out the oldest ones, /clear forgets them all",
        );
      if (result.text) messages.push({ role: "assistant", content: result.text });
      else messages.pop();
    } catch (error) {
      messages.splice(0, messages.length, ...before);
      const full = error instanceof PerchError && error.code === "context_length_exceeded";
      output.write(`\nperch run: ${errorMessage(error)}${full ? " Send a shorter message." : ""}\n`);
    } finally {
      reply = null;
    }
  };

  // Lines of a paste (between the terminal's paste-start and paste-end keys) and of a """ block
  // wait for the line that ends them; they go out as one message.
  let pasting = false;
  let quoted: string[] | null = null;
  const held: string[] = [];
  const onKeypress = (_text: string, key: { name?: string } | undefined) => {
    if (key?.name === "paste-start") pasting = true;
    if (key?.name === "paste-end") pasting = false;
  };
  const bracketedPaste = Boolean(input.isTTY && output.isTTY);
  if (bracketedPaste) {
    input.on("keypress", onKeypress);
    output.write("\x1b[?2004h");
  }
  /** The message a line completes, or null while more lines belong to it. */
  const complete = (line: string): string | null => {
    if (pasting) {
      (quoted ?? held).push(line);
      return null;
    }
    if (quoted) {
      const end = line.trimEnd().endsWith('"""');
      quoted.push(end ? line.trimEnd().slice(0, -3) : line);
      if (!end) return null;
      const text = [...held, ...quoted].join("\n");
      held.length = 0;
      quoted = null;
      rl.setPrompt(">>> ");
      return text;
    }
    const start = line.trimStart();
    if (start.startsWith('"""') && !(start.length >= 6 && start.trimEnd().endsWith('"""'))) {
      quoted = [start.slice(3)];
      rl.setPrompt("... ");
      return null;
    }
    const single = start.startsWith('"""') ? start.trimEnd().slice(3, -3) : line;
    const text = [...held, single].join("\n");
    held.length = 0;
    return text;
  };

  output.write(help);
  rl.prompt();
  let busy = false;
  let closed = false;
  await new Promise<void>((resolve) => {
    rl.on("line", (typed) => {
      interruptedAtPrompt = false;
      const line = complete(typed);
      if (line === null) {
        if (!pasting) rl.prompt();
        return;
      }
      if (line.trim()) appendHistory(options.historyFile, line.trim());
      queued.push(line);
      if (busy) return;
      busy = true;
      void (async () => {
        while (queued.length > 0) await ask(queued.shift()!);
        busy = false;
        if (!closed) rl.prompt();
      })();
    });
    rl.on("close", () => {
      closed = true;
      reply?.abort();
      resolve();
    });
  });
  process.removeListener("SIGINT", onProcessSigint);
  if (bracketedPaste) {
    input.removeListener("keypress", onKeypress);
    output.write("\x1b[?2004l");
  }
  output.write("\n");
}

function readHistory(file: string | undefined): string[] {
  if (!file) return [];
  try {
    // readline wants the newest first.
    return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).reverse().slice(0, 1000);
  } catch {
    return [];
  }
}

function appendHistory(file: string | undefined, line: string): void {
  if (!file || line.startsWith("/")) return;
  try {
    fs.appendFileSync(file, `${line.replace(/\n/g, " ")}\n`);
  } catch {
    // History is a convenience: a read-only base path must not break the chat.
  }
}
