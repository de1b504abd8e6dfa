import { PerchError } from "../../../base/PerchError.js";
import type { StoredInputItem } from "../../../../src-shared/contracts/openaiResponses.js";
import type { ChatMessage } from "./toChatRequest.js";

/** Stored responses kept at once: the oldest is forgotten first. */
export const storedResponsesLimit = 256;

/** What is kept of a response: itself, and what a later turn continues. */
interface StoredResponse {
  response: { id: string; output: StoredInputItem[] };
  /** The whole conversation it ended, as chat messages (instructions aside). */
  conversation: ChatMessage[];
  /** The items it was given: the conversation it continued, then its own input. */
  inputItems: StoredInputItem[];
}

/**
 * The responses `store` keeps (in memory, the last `storedResponsesLimit`): each with the whole
 * conversation it ended (instructions aside), which `previous_response_id` continues, and its
 * input items, which `GET /v1/responses/{id}/input_items` lists.
 */
export class ResponseStore {
  private readonly entries = new Map<string, StoredResponse>();

  keep(entry: StoredResponse): void {
    this.entries.set(entry.response.id, entry);
    while (this.entries.size > storedResponsesLimit) this.entries.delete(this.entries.keys().next().value!);
  }

  response(id: string): unknown {
    return this.entry(id, "id").response;
  }

  /** The conversation a response ended, as chat messages and as items (its input, then its output). */
  continuation(id: string): { conversation: ChatMessage[]; items: StoredInputItem[] } {
    const { conversation, inputItems, response } = this.entry(id, "previous_response_id");
    return { conversation, items: [...inputItems, ...response.output] };
  }

  inputItems(id: string): StoredInputItem[] {
    return this.entry(id, "id").inputItems;
  }

  delete(id: string): void {
    this.entry(id, "id");
    this.entries.delete(id);
  }

  private entry(id: string, param: string) {
    const entry = this.entries.get(id);
    if (!entry) {
      throw new PerchError(
        "not_found",
        `No stored response '${id.slice(0, 256)}' (Perch keeps the last ${storedResponsesLimit} in memory, until it restarts).`,
        { param },
      );
    }
    return entry;
  }
}
