import type { ChatMessage } from "../../scheduler/GenerationRequest.js";

/** The fields of a per-question result the runner reads and writes. */
export interface ScoredQuestion {
  id: string;
  correct: boolean;
  failure_type: string | null;
  /** This question's own generation time, set by the runner. */
  time_s: number;
}

/** Why a question has no scored answer. */
export interface Unanswered {
  failureType: "generation_error" | "cancelled";
  error: string;
  rawResponse: string;
  timeSeconds: number;
}

/** What the runner needs of a benchmark (the benchmark modules are adapted to it). */
export interface RunnableBenchmark<Item, Result extends ScoredQuestion = ScoredQuestion> {
  readonly name: string;
  /** Tokens an answer may take without reasoning. */
  readonly maxTokens: number;
  questionId(item: Item, index: number): string;
  buildMessages(item: Item): ChatMessage[];
  /**
   * Scores one answer. `response` has reasoning removed; `rawResponse` is the whole output (kept in
   * the result). Aborting `signal` stops the scoring (the run was cancelled).
   */
  score(item: Item, input: { response: string; rawResponse: string; signal: AbortSignal }): Promise<Result>;
  /** The result of a question that was not answered (generation failed or was cancelled). */
  unanswered(item: Item, index: number, why: Unanswered): Result;
}
