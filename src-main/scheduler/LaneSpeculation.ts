import type { SpeculationSessionFactory } from "./speculation/SpeculationSessionFactory.js";

/** What a model lane speculates with, and how it is torn down. Empty when the model does not speculate. */
export interface LaneSpeculation {
  factory?: SpeculationSessionFactory;
  /** Frees what `factory` needs beyond itself (the draft context and model). */
  disposeSpeculation?: () => Promise<void>;
  /** Lets the speculation source switch the lane's speculation off (its draft model went away). */
  bindLane?: (lane: { disableSpeculation: (reason: string) => void }) => void;
}
