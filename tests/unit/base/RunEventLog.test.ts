import { describe, expect, it } from "vitest";
import { RunEventLog } from "../../../src-main/base/RunEventLog.js";

describe("RunEventLog", () => {
  it("replays everything so far to a late subscriber, then delivers live events", () => {
    const log = new RunEventLog<number>();
    log.append(1);
    log.append(2);
    const seen: number[] = [];
    log.subscribe((event) => seen.push(event));
    expect(seen).toEqual([1, 2]);
    log.append(3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("gives a subscriber after the end the whole history and the end", () => {
    const log = new RunEventLog<string>();
    log.append("a");
    log.end();
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
    const log = new RunEventLog<number>();
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
    log.end();
    expect(first).toEqual([1]);
    expect(second).toEqual([1, 2]);
    expect(secondEnded).toBe(true);
  });

  it("keeps only the latest of consecutive progress events for the replay, and delivers every one live", () => {
    type Event = { type: "started" | "progress" | "done"; n: number };
    const log = new RunEventLog<Event>({ isProgress: (event) => event.type === "progress" });
    const live: number[] = [];
    log.subscribe((event) => live.push(event.n));
    log.append({ type: "started", n: 0 });
    for (let n = 1; n <= 5; n += 1) log.append({ type: "progress", n });
    log.append({ type: "done", n: 6 });
    expect(live).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(log.events.map((event) => event.n)).toEqual([0, 5, 6]);
    expect(log.count).toBe(7);
  });

  it("ends itself after the terminal event, and a resumed run continues the same log", () => {
    const log = new RunEventLog<string>({ isTerminal: (event) => event === "end" });
    let ends = 0;
    log.subscribe(
      () => {},
      () => (ends += 1),
    );
    log.append("start");
    log.append("end");
    expect(log.closed).toBe(true);
    expect(ends).toBe(1);
    log.reopen();
    log.append("start");
    const seen: string[] = [];
    log.subscribe((event) => seen.push(event));
    expect(seen).toEqual(["start", "end", "start"]);
  });

  it("holds at most maxEvents for the replay, keeping the first", () => {
    const log = new RunEventLog<number>({ maxEvents: 3 });
    for (let n = 0; n < 10; n += 1) log.append(n);
    expect(log.events).toEqual([0, 8, 9]);
    expect(log.count).toBe(10);
  });

  it("goes on delivering when a listener throws", () => {
    const log = new RunEventLog<number>();
    const seen: number[] = [];
    log.subscribe(() => {
      throw new Error("socket closed");
    });
    log.subscribe((event) => seen.push(event));
    log.append(1);
    log.append(2);
    expect(seen).toEqual([1, 2]);
  });
});
