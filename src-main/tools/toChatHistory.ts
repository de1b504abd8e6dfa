import {
  LlamaText,
  type ChatHistoryItem,
  type ChatModelFunctionCall,
  type ChatModelResponse,
  type ChatWrapper,
} from "node-llama-cpp";
import type { ConversationMessage } from "./ConversationMessage.js";

/** A conversation that cannot be given to the model as is (the message index says where). */
export class ChatHistoryError extends Error {
  constructor(
    message: string,
    readonly messageIndex: number,
  ) {
    super(message);
  }
}

/**
 * node-llama-cpp's chat history for a conversation. Tool calls and their results follow the
 * library's model: a call and its result live together in the model response that made the call,
 * and the model's text after the results continues that same response — so the chat format renders
 * both in the model's own syntax. A trailing model response is continued; otherwise an empty one
 * is opened for the answer. A call whose arguments are not JSON is given as its text: `params`
 * holds the string (a Jinja template prints it as the model's tools would), and with `chatWrapper`
 * its `rawCall` is the format's call with that text as the arguments, as formats that read
 * `rawCall` print it (they would otherwise quote the string as JSON).
 */
export function toChatHistory(
  messages: readonly ConversationMessage[],
  chatWrapper?: ChatWrapper,
): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  // Each call waiting for its result, with the message that made it (errors name both: on the
  // Ollama API the id is one Perch made up, so the tool's name and the message are what the
  // client knows).
  const pending = new Map<string, { item: ChatModelFunctionCall; messageIndex: number }>();
  const requireAnswered = (index: number) => {
    const [entry] = pending.entries();
    if (entry === undefined) return;
    const [id, { item, messageIndex }] = entry;
    throw new ChatHistoryError(
      `The call to tool '${item.name}' in message ${messageIndex} (id '${id}') has no tool message answering it: its result must follow before the next message.`,
      index,
    );
  };
  messages.forEach((message, index) => {
    switch (message.role) {
      case "system":
      case "user":
        requireAnswered(index);
        history.push({ type: message.role, text: message.content });
        return;
      case "assistant": {
        requireAnswered(index);
        const last = history.at(-1);
        // After tool results the model's next words continue the response that made the calls.
        const response: ChatModelResponse =
          last?.type === "model" && isFunctionCall(last.response.at(-1))
            ? last
            : (history[history.push({ type: "model", response: [] }) - 1] as ChatModelResponse);
        if (message.content) response.response.push(message.content);
        // A second round of calls in one response starts a new call section of the format.
        const startsNewChunk = response.response.some(isFunctionCall);
        for (const [callIndex, call] of (message.toolCalls ?? []).entries()) {
          const item: ChatModelFunctionCall = {
            type: "functionCall",
            name: call.name,
            description: undefined,
            params: call.unparsedArguments ?? call.arguments,
            result: undefined,
            ...(call.unparsedArguments !== undefined && chatWrapper
              ? rawCallOf(chatWrapper, call.name, call.unparsedArguments)
              : {}),
            ...(callIndex === 0 && startsNewChunk ? { startsNewChunk: true } : {}),
          };
          if (pending.has(call.id)) {
            throw new ChatHistoryError(
              `Two tool calls in message ${index} have the id '${call.id}': each call needs its own id, so that its result can name it.`,
              index,
            );
          }
          pending.set(call.id, { item, messageIndex: index });
          response.response.push(item);
        }
        return;
      }
      case "tool": {
        const call = pending.get(message.toolCallId);
        if (!call) {
          throw new ChatHistoryError(
            `No assistant tool call has the id '${message.toolCallId}' (or it was answered already).`,
            index,
          );
        }
        pending.delete(message.toolCallId);
        call.item.result = toResult(message.content, message.isError === true);
        return;
      }
      default:
        message satisfies never;
    }
  });
  requireAnswered(messages.length);
  if (history.at(-1)?.type !== "model") history.push({ type: "model", response: [] });
  return history;
}

/**
 * The format's call syntax around arguments text as it is: the call rendered with a placeholder
 * string, whose JSON form is then replaced by the text. Nothing when the format does not print the
 * placeholder as plain text (then `params` alone is rendered).
 */
function rawCallOf(
  chatWrapper: ChatWrapper,
  name: string,
  text: string,
): Pick<ChatModelFunctionCall, "rawCall"> {
  const placeholder = "perch_unparsed_arguments_placeholder";
  const quoted = JSON.stringify(placeholder);
  let found = false;
  const values = chatWrapper.generateFunctionCall(name, placeholder).values.map((value) => {
    if (found || typeof value !== "string" || !value.includes(quoted)) return value;
    found = true;
    return value.replace(quoted, () => text);
  });
  return found ? { rawCall: LlamaText(values).toJSON() } : {};
}

function isFunctionCall(item: ChatModelResponse["response"][number] | undefined): boolean {
  return typeof item === "object" && item.type === "functionCall";
}

/** JSON results are given back as JSON (the format prints them as such); other text as a string. */
function toResult(content: string, isError: boolean): unknown {
  let value: unknown = content;
  const trimmed = content.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = content;
    }
  }
  return isError ? { error: value } : value;
}
