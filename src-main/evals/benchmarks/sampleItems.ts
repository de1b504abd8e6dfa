import type { BenchmarkItem } from "./Benchmark.js";
import { seededRandom, shuffled } from "../../base/seededRandom.js";

/**
 * A sample of `limit` items stratified by category: every category gets at least one item when
 * the limit allows (small subjects are not dropped), the rest is shared in proportion to category
 * size (largest remainders first), each share drawn at random with `seed`. Items keep their
 * dataset order. All items when `limit` is unset or not smaller.
 */
export function sampleItems<Item extends BenchmarkItem>(items: Item[], limit?: number, seed = 42): Item[] {
  if (limit === undefined || limit >= items.length) return items;
  if (limit <= 0) return [];
  const groups = new Map<string, number[]>();
  items.forEach((item, index) => {
    const group = groups.get(item.category) ?? [];
    group.push(index);
    groups.set(item.category, group);
  });
  const everyCategory = limit >= groups.size;
  const shares = [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([category, indexes]) => {
      const exact = (indexes.length * limit) / items.length;
      return {
        category,
        indexes,
        exact,
        take: everyCategory ? Math.max(1, Math.floor(exact)) : Math.floor(exact),
      };
    });
  let left = limit - shares.reduce((sum, share) => sum + share.take, 0);
  // The minimum of one may overshoot: take back from the shares most above their exact size.
  while (left < 0) {
    const over = shares
      .filter((share) => share.take > 1)
      .sort((a, b) => b.take - b.exact - (a.take - a.exact))[0];
    over.take -= 1;
    left += 1;
  }
  for (const share of [...shares].sort((a, b) => b.exact - b.take - (a.exact - a.take))) {
    if (left === 0) break;
    if (share.take < share.indexes.length) {
      share.take += 1;
      left -= 1;
    }
  }
  const random = seededRandom(seed);
  const chosen = new Set<number>();
  for (const share of shares) {
    for (const index of shuffled(share.indexes, random).slice(0, share.take)) chosen.add(index);
  }
  return items.filter((_item, index) => chosen.has(index));
}
