import type { Token, TokenPredictor } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { SpeculationSession } from "../../../src-main/scheduler/speculation/SpeculationSession.js";

/** Like a draft predictor waiting for `minTokens` that never come (its waiters are not flushed on dispose). */
const stalledPredictor = () => {
  const calls: string[] = [];
  const predictor = {
    predictTokens: () => new Promise<Token[]>(() => undefined),
    pushTokens: () => calls.push("push"),
    stop: () => calls.push("stop"),
    updateInputTokens: () => calls.push("input"),
    dispose: () => calls.push("dispose"),
  } as unknown as TokenPredictor;
  return { predictor, calls };
};

describe("SpeculationSession", () => {
  it("closing answers a pending prediction with nothing, so the target never stalls", async () => {
    const { predictor, calls } = stalledPredictor();
    const session = new SpeculationSession(
      "a",
      "draft",
      async () => predictor,
      (p) => void p?.dispose(),
    );
    const pending = session.predict();
    await session.ready;
    session.close();
    await expect(pending).resolves.toEqual([]);
    expect(calls).toEqual(["dispose"]);
    session.push([1 as Token]);
    expect(calls).toEqual(["dispose"]);
  });

  it("a predictor finished after close is released, never used", async () => {
    const { predictor, calls } = stalledPredictor();
    let finish: (value: TokenPredictor) => void = () => undefined;
    const session = new SpeculationSession(
      "a",
      "draft",
      () => new Promise<TokenPredictor>((resolve) => (finish = resolve)),
      (p) => void p?.dispose(),
    );
    const pending = session.predict();
    session.close();
    finish(predictor);
    await expect(pending).resolves.toEqual([]);
    expect(calls).toEqual(["dispose"]);
  });

  it("a failed creation surfaces in predict", async () => {
    const session = new SpeculationSession(
      "a",
      "draft",
      async () => {
        throw new Error("incompatible draft model");
      },
      () => undefined,
    );
    await expect(session.predict()).rejects.toThrow("incompatible draft model");
  });
});
