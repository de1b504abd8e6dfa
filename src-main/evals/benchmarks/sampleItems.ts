import type { BenchmarkItem } from "./Benchmark.js";
import { seededRandom, shuffled } from "./text/seededRandom.js";

/**
 * A sample of `limit` items stratified by category: each category gets its proportional share
 * (largest remainders get the leftovers, so small subjects are not dropped first), drawn at random
 * with `seed`. Items keep their dataset order. All items when `limit` is unset or not smaller.
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
  const shares = [...groups.entries()].map(([category, indexes]) => {
    const exact = (indexes.length * limit) / items.length;
    return { category, indexes, take: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = limit - shares.reduce((sum, share) => sum + share.take, 0);
  for (const share of [...shares].sort(
    (a, b) => b.remainder - a.remainder || a.category.localeCompare(b.category),
  )) {
    if (left === 0) break;
    if (share.take < share.indexes.length) {
      share.take += 1;
      left -= 1;
    }
  }
  const random = seededRandom(seed);
  const chosen = new Set<number>();
  for (const share of shares)
    for (const index of shuffled(share.indexes, random).slice(0, share.take)) chosen.add(index);
  return items.filter((_item, index) => chosen.has(index));
}
