import type { LlamaChatResponseFunctionCall, LlamaChatResponseFunctionCallParamsChunk } from "node-llama-cpp";
import { newToolCallId } from "./newToolCallId.js";
import type { ToolCall, UnfinishedToolCall } from "./ToolDefinition.js";

/** A piece of a tool call as it is generated: its start, then argument text. */
export type ToolCallPiece =
  | { kind: "start"; index: number; id: string; name: string }
  | { kind: "arguments"; index: number; text: string };

/**
 * Turns `LlamaChat`'s function-call callbacks into tool calls with fresh ids: each call is
 * announced once (index, id, name), then its argument text streams in fragments whose
 * concatenation is the call's JSON arguments. Whitespace the grammar allows after the JSON (before
 * the format's call suffix) is held back and dropped, so the fragments end with the closing brace.
 */
export class ToolCallCollector {
  private readonly complete: ToolCall[] = [];
  private readonly started = new Map<number, { id: string; name: string; held: string; text: string }>();

  constructor(
    private readonly idPrefix = "call_",
    private readonly onPiece?: (piece: ToolCallPiece) => void,
  ) {}

  readonly onParamsChunk = (chunk: LlamaChatResponseFunctionCallParamsChunk): void => {
    const call = this.start(chunk.callIndex, chunk.functionName);
    const text = call.held + chunk.paramsChunk;
    const kept = text.trimEnd();
    call.held = text.slice(kept.length);
    if (kept.length === 0) return;
    call.text += kept;
    this.onPiece?.({ kind: "arguments", index: chunk.callIndex, text: kept });
  };

  readonly onCall = (call: LlamaChatResponseFunctionCall<never>): void => {
    const index = this.complete.length;
    const started = this.start(index, call.functionName);
    const args: unknown = call.params ?? {};
    // A tool without parameters streams no argument text: its arguments are the empty object.
    if (started.text === "") {
      started.text = JSON.stringify(args);
      this.onPiece?.({ kind: "arguments", index, text: started.text });
    }
    this.complete.push({
      id: started.id,
      name: call.functionName,
      arguments: args,
      argumentsText: started.text,
    });
  };

  /** The complete calls, in the order the model made them. */
  calls(): ToolCall[] {
    return [...this.complete];
  }

  /** Calls announced (and streamed) but never completed: the generation ended inside them. */
  unfinished(): UnfinishedToolCall[] {
    return [...this.started]
      .filter(([index]) => index >= this.complete.length)
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({ id: call.id, name: call.name, argumentsText: call.text }));
  }

  private start(index: number, name: string) {
    let call = this.started.get(index);
    if (!call) {
      call = { id: newToolCallId(this.idPrefix), name, held: "", text: "" };
      this.started.set(index, call);
      this.onPiece?.({ kind: "start", index, id: call.id, name });
    }
    return call;
  }
}
