import crypto from "node:crypto";
import type { ResponseInputItem, StoredInputItem } from "../../../../src-shared/contracts/openaiResponses.js";

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;

/**
 * A request's input items as `GET /v1/responses/{id}/input_items` lists them: each with an id of
 * its kind (`msg_`, `fc_`, `fco_`, `rs_`) and a status, a message's text as parts (`input_text`,
 * or `output_text` for the assistant's), as OpenAI answers them.
 */
export function toStoredInputItems(items: readonly ResponseInputItem[]): StoredInputItem[] {
  return items.map((item): StoredInputItem => {
    switch (item.type) {
      case "function_call":
        return { ...item, id: newId("fc"), status: "completed" };
      case "function_call_output":
        return { ...item, id: newId("fco"), status: "completed" };
      case "reasoning":
        return { type: "reasoning", id: newId("rs"), summary: [] };
      default: {
        const partType = item.role === "assistant" ? "output_text" : "input_text";
        return {
          type: "message",
          id: newId("msg"),
          status: "completed",
          role: item.role,
          content: typeof item.content === "string" ? [{ type: partType, text: item.content }] : item.content,
        };
      }
    }
  });
}
