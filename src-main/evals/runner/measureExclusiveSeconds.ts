/** A time span in milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * Seconds covered by `busy` but by none of `other`: the scoring time that did not overlap
 * generation (what scoring really added to a run's wall time).
 */
export function measureExclusiveSeconds(busy: readonly Interval[], other: readonly Interval[]): number {
  const a = union(busy);
  const b = union(other);
  let overlap = 0;
  let j = 0;
  for (const span of a) {
    while (j < b.length && b[j].end <= span.start) j += 1;
    for (let k = j; k < b.length && b[k].start < span.end; k += 1) {
      overlap += Math.min(span.end, b[k].end) - Math.max(span.start, b[k].start);
    }
  }
  return (length(a) - overlap) / 1000;
}

function union(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((span) => span.end > span.start).sort((x, y) => x.start - y.start);
  const merged: Interval[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

function length(intervals: readonly Interval[]): number {
  return intervals.reduce((sum, span) => sum + span.end - span.start, 0);
}
