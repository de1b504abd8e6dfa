/**
 * A tool the model may call, independent of any HTTP API's wire shape (OpenAI `tools`, Anthropic
 * `tools` and Ollama `tools` all map onto it).
 */
export interface ToolDefinition {
  /** Unique within a request; what the model writes to call it. */
  name: string;
  description?: string;
  /** JSON schema of the arguments object; absent: the tool takes no arguments. */
  parameters?: Record<string, unknown>;
}

/**
 * Whether and which tool the model must call. `auto`: the model decides (a real model calls a tool
 * by writing its format's call syntax); `none`: no tool is offered; `required`: the model must call
 * at least one tool; `function`: it must call the named one. `required` and `function` are forced
 * by grammar, so any model produces a well-formed call.
 */
export type ToolChoice =
  { kind: "auto" } | { kind: "none" } | { kind: "required" } | { kind: "function"; name: string };

/** The tools of one request and how they may be used. */
export interface ToolUse {
  tools: ToolDefinition[];
  choice: ToolChoice;
  /** Whether the model may make more than one call in one turn. Defaults to `true`. */
  parallel?: boolean;
  /** Prefix of the ids given to new calls (`call_` for OpenAI, `toolu_` for Anthropic). Defaults to `call_`. */
  idPrefix?: string;
  /**
   * The request's own names for the tools and the choice, for errors (OpenAI's legacy
   * `functions` / `function_call`). Defaults to `{tools: "tools", choice: "tool_choice"}`.
   */
  fields?: { tools: string; choice: string };
}

/** A call the model made, or one given back in the conversation. */
export interface ToolCall {
  id: string;
  name: string;
  /** The parsed arguments (valid against the tool's `parameters` when the model made the call). */
  arguments: unknown;
  /**
   * The arguments as the model wrote them (what a stream sent), when it made the call here: the
   * wire text OpenAI-style APIs answer, where parsing and serializing again could change a value
   * (a long integer, a number past double range).
   */
  argumentsText?: string;
  /**
   * A call given back in the conversation whose arguments are not JSON (a call a token limit cut,
   * replayed as it was answered; OpenAI takes history arguments as an opaque string): the prompt
   * shows this text as the call's arguments, and `arguments` is not read.
   */
  unparsedArguments?: string;
}

/** A call the generation ended inside (`max_tokens`): its arguments text stops mid-JSON. */
export interface UnfinishedToolCall {
  id: string;
  name: string;
  argumentsText: string;
}
