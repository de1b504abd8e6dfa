import type { QuestionResult } from "../../../src-shared/contracts/accuracy.js";
import type { ChatMessage } from "../../scheduler/GenerationRequest.js";

/** What a result needs to name a question, also one that was never answered. */
export interface QuestionInfo {
  id: string;
  expected: string;
  category: string;
}

/** What the runner needs of a benchmark (the benchmark modules are adapted to it). */
export interface RunnableBenchmark<Item> {
  readonly name: string;
  /** Tokens an answer may take without reasoning. */
  readonly maxTokens: number;
  describe(item: Item, index: number): QuestionInfo;
  /** The prompt; with `thinking` the model will reason first (prompts may differ). */
  buildMessages(item: Item, options: { thinking: boolean }): ChatMessage[];
  /**
   * Scores one answer. `response` has reasoning removed; `rawResponse` is the whole output (the
   * result's `response`). Aborting `signal` stops scoring (the run was cancelled). Throwing means
   * the scorer itself is broken (no python, a bug): the benchmark fails rather than count it wrong.
   */
  score(
    item: Item,
    input: { response: string; rawResponse: string; signal: AbortSignal },
  ): Promise<QuestionResult>;
}
