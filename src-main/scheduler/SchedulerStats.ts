import type { SpeculativeSettings } from "../../src-shared/contracts/settings.js";

/** One loaded model's scheduling state (`GET /admin/api/stats`, the tray). */
export interface ModelSchedulerStats {
  modelId: string;
  /** Sequences of the model's context (`max_concurrent_requests`). */
  sequences: number;
  activeSequences: number;
  queueDepth: number;
  maxQueue: number;
  /** Tokens each sequence can hold. */
  contextSize: number;
  /** Tokens generated over the last minute. */
  generatedTokensLastMinute: number;
  /** `generatedTokensLastMinute / 60`. */
  tokensPerSecond: number;
  requests: { completed: number; cancelled: number; rejected: number; failed: number };
  speculation: {
    /** The configured mode ("off" also when a draft model was not available). */
    mode: SpeculativeSettings["mode"];
    /** False once speculation was switched off (repeated failures, draft model unloaded). */
    enabled: boolean;
    /** Request id owning live speculation state, `null` when none does. */
    owner: string | null;
    sessionsCreated: number;
    sessionsDropped: number;
    validatedTokens: number;
    refutedTokens: number;
  };
}

export interface SchedulerStats {
  models: ModelSchedulerStats[];
  totals: {
    activeSequences: number;
    queueDepth: number;
    generatedTokensLastMinute: number;
    tokensPerSecond: number;
  };
}
