import { describe, expect, it } from "vitest";
import { hashFor, parseHash } from "../../../src-renderer/components/hashRoute.js";

describe("hash route", () => {
  it("keeps the open conversation in the chat page's URL, so a reload reopens it", () => {
    expect(hashFor("chat", "conv-1")).toBe("#/chat/conv-1");
    expect(parseHash("#/chat/conv-1")).toEqual({ page: "chat", conversationId: "conv-1" });
    expect(parseHash(hashFor("chat", "a/b c"))).toEqual({ page: "chat", conversationId: "a/b c" });
  });

  it("reads and writes the other pages as before", () => {
    expect(hashFor("chat", null)).toBe("#/chat");
    expect(hashFor("benchmarks", "conv-1")).toBe("#/benchmarks");
    expect(parseHash("#/chat")).toEqual({ page: "chat", conversationId: null });
    expect(parseHash("#/server")).toEqual({ page: "server", conversationId: null });
    expect(parseHash("#/nowhere")).toBeNull();
    expect(parseHash("")).toBeNull();
    expect(parseHash("#/chat/%E0%A4%A")).toEqual({ page: "chat", conversationId: null });
  });
});
