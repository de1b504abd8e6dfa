import { PerchError } from "../../../base/PerchError.js";
import type { ChatMessage } from "./toChatRequest.js";

/** Stored responses kept at once: the oldest is forgotten first. */
export const storedResponsesLimit = 256;

/**
 * The responses `store` keeps (in memory, the last `storedResponsesLimit`): each with the whole
 * conversation it ended (instructions aside), which `previous_response_id` continues.
 */
export class ResponseStore {
  private readonly entries = new Map<string, { response: unknown; conversation: ChatMessage[] }>();

  keep(response: { id: string }, conversation: ChatMessage[]): void {
    this.entries.set(response.id, { response, conversation });
    while (this.entries.size > storedResponsesLimit) this.entries.delete(this.entries.keys().next().value!);
  }

  response(id: string): unknown {
    return this.entry(id, "id").response;
  }

  conversation(id: string): ChatMessage[] {
    return this.entry(id, "previous_response_id").conversation;
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
