import { describe, expect, it } from "vitest";
import {
  SpeculationOwnership,
  type SpeculationDropReason,
} from "../../../src-main/scheduler/SpeculationOwnership.js";

interface FakeState {
  owner: string;
  id: number;
}

function setup() {
  const drops: { owner: string; id: number; reason: SpeculationDropReason }[] = [];
  let next = 0;
  const ownership = new SpeculationOwnership<FakeState>({
    drop: (value, owner, reason) => drops.push({ owner, id: value.id, reason }),
  });
  const create = (owner: string) => () => ({ owner, id: ++next });
  return { ownership, drops, create };
}

describe("SpeculationOwnership", () => {
  it("does not create state when the batch forms, only lazily at a decoding step", () => {
    const { ownership, create } = setup();
    ownership.join("a", { eligible: true });
    expect(ownership.owner).toBeUndefined();
    expect(ownership.created).toBe(0);
    const state = ownership.acquire("a", create("a"));
    expect(state).toEqual({ owner: "a", id: 1 });
    expect(ownership.created).toBe(1);
  });

  it("stamps state with its owner and returns the same state on later steps", () => {
    const { ownership, create } = setup();
    ownership.join("a", { eligible: true });
    const first = ownership.acquire("a", create("a"));
    const second = ownership.acquire("a", create("a"));
    expect(second).toBe(first);
    expect(ownership.owner).toBe("a");
    expect(ownership.peek("a")).toBe(first);
    expect(ownership.peek("b")).toBeUndefined();
  });

  it("creates state only for an eligible singleton", () => {
    const { ownership, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.join("b", { eligible: true });
    expect(ownership.acquire("a", create("a"))).toBeUndefined();
    expect(ownership.acquire("b", create("b"))).toBeUndefined();
    expect(ownership.created).toBe(0);
    // A request that is not in the batch never gets state, even when the batch is a singleton.
    ownership.leave("b");
    expect(ownership.acquire("z", create("z"))).toBeUndefined();
  });

  it("never creates state for a grammar-constrained (ineligible) request", () => {
    const { ownership, create } = setup();
    ownership.join("json", { eligible: false });
    for (let step = 0; step < 5; step++) expect(ownership.acquire("json", create("json"))).toBeUndefined();
    expect(ownership.created).toBe(0);
  });

  it("drops the owner's state when another request joins", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.acquire("a", create("a"));
    ownership.join("b", { eligible: true });
    expect(drops).toEqual([{ owner: "a", id: 1, reason: "join" }]);
    expect(ownership.owner).toBeUndefined();
    expect(ownership.peek("a")).toBeUndefined();
  });

  it("drops the state when a leave breaks ownership", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.acquire("a", create("a"));
    ownership.leave("a");
    expect(drops).toEqual([{ owner: "a", id: 1, reason: "leave" }]);
    expect(ownership.owner).toBeUndefined();
  });

  it("never resumes stale state after join-then-leave: the singleton gets a fresh generation", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    const before = ownership.acquire("a", create("a"));
    const generationBefore = ownership.generation;
    ownership.join("b", { eligible: true });
    expect(ownership.acquire("a", create("a"))).toBeUndefined();
    ownership.leave("b");
    // Nothing is created by the leave itself.
    expect(ownership.owner).toBeUndefined();
    const after = ownership.acquire("a", create("a"));
    expect(after).not.toBe(before);
    expect(after).toEqual({ owner: "a", id: 2 });
    expect(ownership.generation).toBeGreaterThan(generationBefore ?? 0);
    expect(drops.map((drop) => drop.id)).toEqual([1]);
  });

  it("hands a fresh state to the new singleton when the owner leaves", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.join("b", { eligible: true });
    ownership.leave("a");
    const state = ownership.acquire("b", create("b"));
    expect(state).toEqual({ owner: "b", id: 1 });
    ownership.join("c", { eligible: true });
    ownership.leave("c");
    expect(drops).toEqual([{ owner: "b", id: 1, reason: "join" }]);
    expect(ownership.acquire("b", create("b"))).toEqual({ owner: "b", id: 2 });
  });

  it("a fallback drops the state and disables speculation for that request only", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.acquire("a", create("a"));
    ownership.fallback("a");
    expect(drops).toEqual([{ owner: "a", id: 1, reason: "fallback" }]);
    expect(ownership.acquire("a", create("a"))).toBeUndefined();
    ownership.leave("a");
    ownership.join("b", { eligible: true });
    expect(ownership.acquire("b", create("b"))).toEqual({ owner: "b", id: 2 });
  });

  it("a restart of the owner's timeline drops its state; the next step recreates it", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.acquire("a", create("a"));
    ownership.restart("b");
    expect(drops).toHaveLength(0);
    ownership.restart("a");
    expect(drops).toEqual([{ owner: "a", id: 1, reason: "restart" }]);
    expect(ownership.acquire("a", create("a"))).toEqual({ owner: "a", id: 2 });
  });

  it("a drop callback that re-enters sees no state", () => {
    let seen: string | undefined = "unset";
    const ownership: SpeculationOwnership<number> = new SpeculationOwnership<number>({
      drop: () => {
        seen = ownership.owner;
      },
    });
    ownership.join("a", { eligible: true });
    ownership.acquire("a", () => 1);
    ownership.join("b", { eligible: true });
    expect(seen).toBeUndefined();
  });

  it("dispose drops the state and forgets the batch", () => {
    const { ownership, drops, create } = setup();
    ownership.join("a", { eligible: true });
    ownership.acquire("a", create("a"));
    ownership.dispose();
    expect(drops).toEqual([{ owner: "a", id: 1, reason: "dispose" }]);
    expect(ownership.batchSize).toBe(0);
  });

  it("rejects a request joining twice", () => {
    const { ownership } = setup();
    ownership.join("a", { eligible: true });
    expect(() => ownership.join("a", { eligible: true })).toThrow(/already joined/);
  });
});
