import { describe, expect, it } from "vitest";
import { ReplayEventLog } from "../../../../src-main/evals/runner/ReplayEventLog.js";

describe("ReplayEventLog", () => {
  it("replays everything so far to a late subscriber, then delivers live events", () => {
    const log = new ReplayEventLog<number>();
    log.append(1);
    log.append(2);
    const seen: number[] = [];
    log.subscribe((event) => seen.push(event));
    expect(seen).toEqual([1, 2]);
    log.append(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("gives a subscriber after the end the whole history and the end", () => {
    const log = new ReplayEventLog<string>();
    log.append("a");
    log.close();
    log.append("ignored");
    const seen: string[] = [];
    let ended = false;
    log.subscribe(
      (event) => seen.push(event),
      () => (ended = true),
    );
    expect(seen).toEqual(["a"]);
    expect(ended).toBe(true);
  });

  it("stops delivering after unsubscribe and ends live subscribers on close", () => {
    const log = new ReplayEventLog<number>();
    const first: number[] = [];
    const second: number[] = [];
    let secondEnded = false;
    const unsubscribe = log.subscribe((event) => first.push(event));
    log.subscribe(
      (event) => second.push(event),
      () => (secondEnded = true),
    );
    log.append(1);
    unsubscribe();
    log.append(2);
    log.close();
    expect(first).toEqual([1]);
    expect(second).toEqual([1, 2]);
    expect(secondEnded).toBe(true);
  });
});
