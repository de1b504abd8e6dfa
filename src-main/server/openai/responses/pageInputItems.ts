import { PerchError } from "../../../base/PerchError.js";
import type {
  ResponseInputItemsQuery,
  StoredInputItem,
} from "../../../../src-shared/contracts/openaiResponses.js";

/**
 * One page of a stored response's input items, as OpenAI's list: `order` (newest first by
 * default), the items after the one `after` names, at most `limit`; `first_id` / `last_id` are the
 * page's ends (`null` when empty) and `has_more` says whether items follow it.
 */
export function pageInputItems(items: readonly StoredInputItem[], query: ResponseInputItemsQuery) {
  const ordered = query.order === "asc" ? [...items] : [...items].reverse();
  let start = 0;
  if (query.after !== undefined) {
    const index = ordered.findIndex((item) => item.id === query.after);
    if (index < 0) {
      throw new PerchError(
        "invalid_request",
        `No input item '${query.after.slice(0, 256)}' in this response.`,
        { param: "after" },
      );
    }
    start = index + 1;
  }
  const data = ordered.slice(start, start + query.limit);
  return {
    object: "list" as const,
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + data.length < ordered.length,
  };
}
