import { PerchError } from "../../base/PerchError.js";

/** Go's longest `time.Duration`, 2^63-1 ns, in seconds. */
const longestGoDurationSeconds = (2 ** 63 - 1) / 1e9;

const unitSeconds: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/**
 * Ollama's `keep_alive` in seconds: a number of seconds or Go's duration text (`"5m"`, `"1h30m"`,
 * `"300"`). Negative means "keep loaded" (`null`), 0 "unload when idle"; `undefined` when absent.
 */
export function parseKeepAlive(value: number | string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  let seconds: number | undefined;
  if (typeof value === "number") seconds = value;
  else {
    const text = value.trim();
    if (/^-?\d+(\.\d+)?$/.test(text)) seconds = Number(text);
    else {
      const match = /^(-?)((?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+)$/.exec(text);
      if (match) {
        const parts = [...match[2].matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)];
        const total = parts.reduce((sum, part) => sum + Number(part[1]) * unitSeconds[part[2]], 0);
        seconds = match[1] === "-" ? -total : total;
      }
    }
  }
  if (seconds === undefined || !Number.isFinite(seconds)) {
    throw new PerchError(
      "invalid_request",
      `keep_alive '${String(value).slice(0, 64)}' is not a duration (seconds, or text like "5m" or "1h").`,
      { param: "keep_alive" },
    );
  }
  // Go's durations end at 2^63-1 ns (about 292 years, "2562047h"): Ollama refuses a longer one,
  // and past it the expiry is no date at all (`/api/ps` could not write it).
  if (Math.abs(seconds) > longestGoDurationSeconds) {
    throw new PerchError(
      "invalid_request",
      `keep_alive '${String(value).slice(0, 64)}' is longer than a duration can be (2562047h, about 292 years); a negative value keeps the model loaded.`,
      { param: "keep_alive" },
    );
  }
  if (seconds < 0) return null;
  // Under a second still unloads: round up so 0.5 s does not become "unload at once".
  return seconds === 0 ? 0 : Math.max(1, Math.round(seconds));
}
