import type {
  AnthropicContentBlock,
  AnthropicMessagesRequest,
} from "../../../src-shared/contracts/anthropic.js";
import { PerchError } from "../../base/PerchError.js";

/** Thread answers kept at once: the oldest is forgotten first. */
export const storedThreadAnswersLimit = 256;

type Message = AnthropicMessagesRequest["messages"][number];

/** What a thread holds under one answer's id: the conversation up to and with that answer. */
interface StoredAnswer {
  system: AnthropicMessagesRequest["system"];
  tools: AnthropicMessagesRequest["tools"];
  /** Every message of the conversation, the answer last. */
  messages: Message[];
  /** An answer is continued once (Anthropic's rule); a second `continue` replays the conversation. */
  continued: boolean;
}

/** One request on (or off) a thread: the whole request it stands for, and what to do once it is answered. */
export interface ThreadTurn {
  /** The request with the thread's `system`, `tools` and earlier messages in place. */
  body: AnthropicMessagesRequest;
  /** Keeps the answer (a thread turn only), so a later `continue` can name it. */
  keep: (answer: { id: string; content: AnthropicContentBlock[] }) => void;
  /** Ends the turn, answered or not: its previous answer may be continued again. */
  release: () => void;
}

/** The refusals a thread answers in Anthropic's shape: `details.error_code` is what the SDKs act on. */
function threadError(
  code: "not_found" | "invalid_request",
  errorCode: string,
  message: string,
  param = "thread.previous_message_id",
) {
  return new PerchError(code, message, { param, details: { error_code: errorCode } });
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Message threads (`thread: {type: "create" | "continue"}`), in memory until Perch restarts: the
 * last `storedThreadAnswersLimit` answers, each with its whole conversation. Unknown or forgotten
 * ids are a 404 `thread_not_found`, on which the Anthropic SDK replays the full history under a new
 * thread; a `continue` never generates without its history.
 */
export class AnthropicThreadStore {
  private readonly answers = new Map<string, StoredAnswer>();
  private readonly continuing = new Set<string>();

  /** The turn a request asks for: the request as it is, or a `continue` with its thread's history. */
  open(body: AnthropicMessagesRequest): ThreadTurn {
    const thread = body.thread;
    if (!thread) return { body, keep: () => undefined, release: () => undefined };
    if (thread.type === "create") {
      return {
        body,
        keep: (answer) => this.store(answer, body),
        release: () => undefined,
      };
    }
    const previousId = thread.previous_message_id;
    const previous = this.answers.get(previousId);
    if (!previous) {
      throw threadError(
        "not_found",
        "thread_not_found",
        `No thread answer '${previousId.slice(0, 256)}' (Perch keeps the last ${storedThreadAnswersLimit} in memory, until it restarts); send the whole conversation with thread {"type": "create"}.`,
      );
    }
    if (previous.continued) {
      throw threadError(
        "invalid_request",
        "thread_already_continued",
        `The answer '${previousId}' has already been continued; continue from the thread's latest answer.`,
      );
    }
    if (this.continuing.has(previousId)) {
      throw threadError(
        "invalid_request",
        "thread_continue_in_flight",
        `Another request is still continuing from '${previousId}'.`,
      );
    }
    for (const field of ["system", "tools"] as const) {
      if (body[field] !== undefined && !sameJson(body[field], previous[field])) {
        throw threadError(
          "invalid_request",
          "thread_fingerprint_mismatch",
          `A thread keeps the ${field} it was created with; leave '${field}' out of a continue, or start a new thread to change it.`,
          field,
        );
      }
    }
    this.continuing.add(previousId);
    const whole: AnthropicMessagesRequest = {
      ...body,
      messages: [...previous.messages, ...body.messages],
      ...(previous.system !== undefined ? { system: previous.system } : {}),
      ...(previous.tools !== undefined ? { tools: previous.tools } : {}),
    };
    return {
      body: whole,
      keep: (answer) => {
        previous.continued = true;
        this.store(answer, whole);
      },
      release: () => this.continuing.delete(previousId),
    };
  }

  private store(answer: Parameters<ThreadTurn["keep"]>[0], body: AnthropicMessagesRequest): void {
    this.answers.set(answer.id, {
      system: body.system,
      tools: body.tools,
      messages: [...body.messages, { role: "assistant", content: answer.content }],
      continued: false,
    });
    while (this.answers.size > storedThreadAnswersLimit)
      this.answers.delete(this.answers.keys().next().value!);
  }
}
