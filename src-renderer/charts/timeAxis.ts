const hour = 3_600_000;
const day = 24 * hour;

export interface TimeAxis {
  domain: [number, number];
  ticks: number[];
  format: (value: number) => string;
}

/**
 * A time axis for timestamps (ms): the domain padded so a single point sits in the middle, about
 * five evenly spaced ticks, and labels with the time when the span is under three days (so runs
 * of one day do not all read "Dec 1").
 */
export function timeAxis(times: number[], locale: string): TimeAxis {
  const first = Math.min(...times);
  const last = Math.max(...times);
  const pad = Math.max((last - first) * 0.05, hour);
  const domain: [number, number] = [first - pad, last + pad];
  const span = domain[1] - domain[0];
  const ticks = Array.from({ length: 5 }, (_, index) => Math.round(domain[0] + (span * index) / 4));
  const withTime = span < 3 * day;
  const formatter = new Intl.DateTimeFormat(
    locale,
    withTime
      ? { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }
      : { month: "short", day: "numeric" },
  );
  return { domain, ticks, format: (value) => formatter.format(new Date(value)) };
}
