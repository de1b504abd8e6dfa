/** Why speculation state was dropped (logged and counted, never used for control flow). */
export type SpeculationDropReason = "join" | "leave" | "restart" | "fallback" | "dispose";

export interface SpeculationOwnershipOptions<T> {
  /** Releases dropped state. Called synchronously; may start async cleanup of its own. */
  drop: (value: T, owner: string, reason: SpeculationDropReason) => void;
}

interface Member {
  eligible: boolean;
}

interface OwnedState<T> {
  owner: string;
  /** Increases with every creation, so a test (or a log) can tell fresh state from resumed state. */
  generation: number;
  value: T;
}

/**
 * Who may speculate right now: the "MTP batch safety" rule of DESIGN.md as a small pure state
 * machine, so it is unit-tested without a model.
 *
 * The scheduler reports the active batch (a request `join`s when it takes a sequence and
 * `leave`s when it gives it back). Each sequence's gated predictor calls `acquire` at every
 * decoding step; state is created there, lazily, only for an eligible singleton, and stamped
 * with its owner. Every reshape drops the state, so nothing is ever resumed from a timeline that
 * another request interleaved with: a singleton again after join-then-leave gets fresh state.
 */
export class SpeculationOwnership<T> {
  private readonly members = new Map<string, Member>();
  private state: OwnedState<T> | undefined;
  private generations = 0;
  private dropCount = 0;

  constructor(private readonly options: SpeculationOwnershipOptions<T>) {}

  /** A request took a sequence: the batch grows, so any state (necessarily another owner's, or a restart) goes. */
  join(requestId: string, options: { eligible: boolean }): void {
    if (this.members.has(requestId)) throw new Error(`Request '${requestId}' already joined the batch`);
    this.members.set(requestId, { eligible: options.eligible });
    this.dropState("join");
  }

  /** A request gave its sequence back. The next singleton starts from fresh state, never this one. */
  leave(requestId: string): void {
    if (!this.members.delete(requestId)) return;
    this.dropState("leave");
  }

  /**
   * The owner's timeline restarted (the library reset the predictor for a new evaluation): drop
   * the state; the next decoding step recreates it from the new timeline.
   */
  restart(requestId: string): void {
    if (this.state?.owner === requestId) this.dropState("restart");
  }

  /**
   * Speculation failed for a request (a predictor threw, the draft model went away): drop its
   * state and never speculate for that request again, so a broken path is not retried per token.
   */
  fallback(requestId: string): void {
    const member = this.members.get(requestId);
    if (member) member.eligible = false;
    if (this.state?.owner === requestId) this.dropState("fallback");
  }

  /**
   * Called at a decoding step of `requestId`. Returns its state, creating it now if the batch is
   * exactly this one eligible request; otherwise `undefined` (decode without speculation).
   */
  acquire(requestId: string, create: () => T): T | undefined {
    if (!this.isEligibleSingleton(requestId)) return undefined;
    if (this.state && this.state.owner !== requestId) this.dropState("fallback");
    if (!this.state) {
      this.generations += 1;
      this.state = { owner: requestId, generation: this.generations, value: create() };
    }
    return this.state.value;
  }

  /** The state if `requestId` owns it; never creates. */
  peek(requestId: string): T | undefined {
    return this.state?.owner === requestId ? this.state.value : undefined;
  }

  isEligibleSingleton(requestId: string): boolean {
    if (this.members.size !== 1) return false;
    return this.members.get(requestId)?.eligible === true;
  }

  /** Drops everything (the model is unloading). */
  dispose(): void {
    this.dropState("dispose");
    this.members.clear();
  }

  get owner(): string | undefined {
    return this.state?.owner;
  }

  /** Generation number of the live state, `undefined` when there is none. */
  get generation(): number | undefined {
    return this.state?.generation;
  }

  get batchSize(): number {
    return this.members.size;
  }

  get created(): number {
    return this.generations;
  }

  get dropped(): number {
    return this.dropCount;
  }

  private dropState(reason: SpeculationDropReason): void {
    const state = this.state;
    if (!state) return;
    // Clear first: a drop callback that re-enters (acquire from a stop hook) must see no state.
    this.state = undefined;
    this.dropCount += 1;
    this.options.drop(state.value, state.owner, reason);
  }
}
