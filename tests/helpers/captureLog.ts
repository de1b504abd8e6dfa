import { Writable } from "node:stream";
import { pino } from "pino";

/** A pino logger at `info` whose lines are parsed into `lines`, for tests that read the log. */
export function captureLog() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { log: pino({ level: "info" }, stream), lines };
}
