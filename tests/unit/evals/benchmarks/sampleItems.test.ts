import { describe, expect, it } from "vitest";
import { sampleItems } from "../../../../src-main/evals/benchmarks/sampleItems.js";

const items = [
  ...Array.from({ length: 60 }, (_v, i) => ({ id: `a${i}`, expected: "", category: "algebra" })),
  ...Array.from({ length: 30 }, (_v, i) => ({ id: `b${i}`, expected: "", category: "biology" })),
  ...Array.from({ length: 10 }, (_v, i) => ({ id: `c${i}`, expected: "", category: "chemistry" })),
];

describe("sampleItems", () => {
  it("takes each category's proportional share, in dataset order", () => {
    const sample = sampleItems(items, 20);
    const count = (category: string) => sample.filter((item) => item.category === category).length;
    expect([count("algebra"), count("biology"), count("chemistry")]).toEqual([12, 6, 2]);
    const positions = sample.map((item) => items.indexOf(item));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it("is the same for the same seed (42 by default) and differs for another", () => {
    expect(sampleItems(items, 20).map((item) => item.id)).toEqual(
      sampleItems(items, 20, 42).map((item) => item.id),
    );
    expect(sampleItems(items, 20, 7).map((item) => item.id)).not.toEqual(
      sampleItems(items, 20).map((item) => item.id),
    );
  });

  it("gives small categories their remainder before dropping them", () => {
    const sample = sampleItems(items, 3);
    expect(new Set(sample.map((item) => item.category))).toEqual(
      new Set(["algebra", "biology", "chemistry"]),
    );
  });

  it("returns everything when the limit is unset or large", () => {
    expect(sampleItems(items)).toBe(items);
    expect(sampleItems(items, 1000)).toBe(items);
  });
});
