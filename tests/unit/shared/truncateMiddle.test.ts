import { describe, expect, it } from "vitest";
import { truncateMiddle } from "../../../src-shared/text/truncateMiddle.js";

describe("truncateMiddle", () => {
  it("leaves text within the limit alone", () => {
    expect(truncateMiddle("short", 10)).toBe("short");
  });

  it("keeps the head and the longer tail within the limit and names what it left out", () => {
    const text = `${"a".repeat(5000)}${"b".repeat(5000)}`;
    const cut = truncateMiddle(text, 1000);
    expect(cut.length).toBeLessThanOrEqual(1000);
    const omitted = Number(/… truncated (\d+) characters …/.exec(cut)![1]);
    const kept = cut.replace(/\n… truncated \d+ characters …\n/, "");
    expect(kept.length + omitted).toBe(text.length);
    expect(cut.startsWith("a")).toBe(true);
    expect(cut.endsWith("b".repeat(500))).toBe(true);
  });
});
