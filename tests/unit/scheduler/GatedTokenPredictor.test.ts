import type { LlamaContextSequence, Token, TokenPredictor } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { SpeculationOwnership } from "../../../src-main/scheduler/SpeculationOwnership.js";
import { GatedTokenPredictor } from "../../../src-main/scheduler/speculation/GatedTokenPredictor.js";
import { SpeculationSession } from "../../../src-main/scheduler/speculation/SpeculationSession.js";
import type {
  SpeculationSessionFactory,
  SpeculationSessionInit,
} from "../../../src-main/scheduler/speculation/SpeculationSessionFactory.js";

/** A predictor that proposes the next `count` integers after the last state token. */
class CountingPredictor {
  state: Token[] = [];
  pushed: Token[][] = [];
  disposed = false;
  constructor(init: SpeculationSessionInit) {
    this.state = init.stateTokens.slice();
  }
  pushTokens(tokens: Token[]) {
    this.pushed.push(tokens.slice());
    this.state.push(...tokens);
  }
  predictTokens(): Token[] {
    const last = (this.state.at(-1) ?? 0) as number;
    return [last + 1, last + 2] as Token[];
  }
  stop() {}
  updateInputTokens() {}
  reset() {}
  dispose() {
    this.disposed = true;
  }
}

function setup(options: { failOpen?: boolean } = {}) {
  const opened: { init: SpeculationSessionInit; predictor: CountingPredictor }[] = [];
  const failures: string[] = [];
  const factory: SpeculationSessionFactory = {
    kind: "lookup",
    open: (init) =>
      new SpeculationSession(
        init.owner,
        "lookup",
        async () => {
          if (options.failOpen) throw new Error("draft model went away");
          const predictor = new CountingPredictor(init);
          opened.push({ init: { ...init, stateTokens: init.stateTokens.slice() }, predictor });
          return predictor as unknown as TokenPredictor;
        },
        (predictor) => void predictor?.dispose(),
      ),
    dispose: async () => undefined,
  };
  const ownership = new SpeculationOwnership<SpeculationSession>({ drop: (session) => session.close() });
  const make = () =>
    new GatedTokenPredictor({ ownership, factory, onFailure: (requestId) => failures.push(requestId) });
  const sequence = {} as LlamaContextSequence;
  const start = (predictor: GatedTokenPredictor, requestId: string, tokens: number[]) => {
    predictor.bind(requestId);
    ownership.join(requestId, { eligible: true });
    predictor.reset({ targetSequence: sequence, stateTokens: tokens as Token[], evaluateOptions: {} });
  };
  return { ownership, opened, failures, make, start };
}

describe("GatedTokenPredictor", () => {
  it("opens no session when the batch forms; the first decoding step of a singleton opens one", async () => {
    const { opened, make, start } = setup();
    const a = make();
    start(a, "a", [1, 2, 3]);
    expect(opened).toHaveLength(0);
    expect(await a.predictTokens()).toEqual([4, 5]);
    expect(opened).toHaveLength(1);
    expect(opened[0].init.owner).toBe("a");
    expect(a.speculated).toBe(true);
  });

  it("predicts nothing while the batch holds two requests", async () => {
    const { opened, make, start } = setup();
    const a = make();
    const b = make();
    start(a, "a", [1]);
    start(b, "b", [7]);
    expect(await a.predictTokens()).toEqual([]);
    expect(await b.predictTokens()).toEqual([]);
    expect(opened).toHaveLength(0);
    expect(a.speculated).toBe(false);
  });

  it("a join closes the owner's session; after the leave a fresh one starts from the current timeline", async () => {
    const { ownership, opened, make, start } = setup();
    const a = make();
    const b = make();
    start(a, "a", [10]);
    expect(await a.predictTokens()).toEqual([11, 12]);
    a.pushTokens([11 as Token]);
    start(b, "b", [50]);
    expect(opened[0].predictor.disposed).toBe(true);
    // Tokens generated while batched are tracked, not fed to the dropped session.
    expect(await a.predictTokens()).toEqual([]);
    a.pushTokens([99 as Token]);
    expect(opened[0].predictor.pushed).toEqual([[11]]);
    ownership.leave("b");
    b.bind(undefined);
    expect(await a.predictTokens()).toEqual([100, 101]);
    expect(opened).toHaveLength(2);
    expect(opened[1].init.stateTokens).toEqual([10, 11, 99]);
  });

  it("a reset (new evaluation) drops the session and the next step recreates it", async () => {
    const { opened, make, start } = setup();
    const a = make();
    start(a, "a", [1]);
    await a.predictTokens();
    a.reset({ targetSequence: {} as LlamaContextSequence, stateTokens: [5 as Token], evaluateOptions: {} });
    expect(opened[0].predictor.disposed).toBe(true);
    expect(await a.predictTokens()).toEqual([6, 7]);
    expect(opened).toHaveLength(2);
  });

  it("a failing session falls back: no predictions, reported once, never retried for that request", async () => {
    const { failures, make, start } = setup({ failOpen: true });
    const a = make();
    start(a, "a", [1]);
    expect(await a.predictTokens()).toEqual([]);
    expect(await a.predictTokens()).toEqual([]);
    expect(failures).toEqual(["a"]);
  });

  it("predictions that finish after the session was dropped are discarded", async () => {
    const { ownership, make, start } = setup();
    const a = make();
    const b = make();
    start(a, "a", [1]);
    const pending = a.predictTokens();
    ownership.join("x", { eligible: true });
    void b;
    expect(await pending).toEqual([]);
  });

  it("never predicts for a request that is not eligible", async () => {
    const { ownership, opened, make } = setup();
    const a = make();
    a.bind("json");
    ownership.join("json", { eligible: false });
    a.reset({ targetSequence: {} as LlamaContextSequence, stateTokens: [1 as Token], evaluateOptions: {} });
    expect(await a.predictTokens()).toEqual([]);
    expect(opened).toHaveLength(0);
  });
});
