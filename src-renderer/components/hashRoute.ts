import { pages, type Page } from "../store/createUiSlice.js";

/** Where the URL's hash points: a page, and on the chat page the open conversation. */
export interface HashRoute {
  page: Page;
  conversationId: string | null;
}

/** Reads `#/benchmarks` or `#/chat/<conversation id>`; null for anything else. */
export function parseHash(hash: string): HashRoute | null {
  const [name, ...rest] = hash.replace(/^#\/?/, "").split("/");
  if (!(pages as readonly string[]).includes(name ?? "")) return null;
  const page = name as Page;
  const id = page === "chat" && rest.length > 0 ? safeDecode(rest.join("/")) : "";
  return { page, conversationId: id || null };
}

/** The hash for a page (with the open conversation on the chat page, so a reload reopens it). */
export function hashFor(page: Page, conversationId: string | null): string {
  return page === "chat" && conversationId ? `#/chat/${encodeURIComponent(conversationId)}` : `#/${page}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return "";
  }
}
