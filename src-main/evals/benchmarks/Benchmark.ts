import type { BenchmarkName, QuestionResult } from "../../../src-shared/contracts/accuracy.js";
import type { ChatMessage } from "../../scheduler/GenerationRequest.js";
import type { DatasetReader } from "../datasets/DatasetReader.js";
import type { CodeSandbox } from "../scoring/SandboxRun.js";
import type { ModelResponse } from "./ModelResponse.js";

/** What every benchmark item carries, so a result can name a question that was never answered. */
export interface BenchmarkItem {
  /** The dataset's id: `HumanEval/0`, MBPP `11`, GSM8K the 0-based row number, ... */
  id: string;
  /** The reference answer as text (a number, a letter, or what the tests check). */
  expected: string;
  /** Subject, difficulty or source: what sampling stratifies by and reports group by. */
  category: string;
}

export interface LoadItemsOptions {
  /** Where the rows come from: the Hub cache, or one local file (`perch eval score --dataset`). */
  datasets: DatasetReader;
  /** One of the benchmark's `variants`. Defaults to its `defaultVariant`. */
  variant?: string;
  /** Sample size, stratified by category. Defaults to every item. */
  limit?: number;
  /** Seed of the stratified sample. Defaults to `42`. */
  seed?: number;
  /** LiveCodeBench: keep problems whose contest date is on or after this ISO date. */
  since?: string;
  /** LiveCodeBench: keep problems whose contest date is on or before this ISO date. */
  until?: string;
  signal?: AbortSignal;
}

export interface PromptOptions {
  /** Whether the model will reason first; prompts then ask for the final answer only at the end. */
  thinking?: boolean;
}

export interface ScoreContext {
  /** Runs code checks; required by code benchmarks (`needsSandbox`). */
  sandbox?: CodeSandbox;
  /** Aborting stops scoring between checks (the run was cancelled). */
  signal?: AbortSignal;
  /** The question's own generation time, copied into the result. Defaults to `0`. */
  timeS?: number;
  /** Wall-clock limit of one code check in seconds. Defaults to the benchmark's own (10 s; LiveCodeBench 6 s per test). */
  checkTimeoutS?: number;
}

/**
 * One accuracy benchmark: turns dataset rows into items, an item into a prompt, and a model
 * response into a scored per-question result. Implementations are stateless; the runner drives
 * generation, timing and concurrency, and splits the reasoning off every response once
 * (`splitResponse`) before a benchmark sees it.
 */
export interface Benchmark<Item extends BenchmarkItem = BenchmarkItem> {
  readonly name: BenchmarkName;
  /** Dataset variants this benchmark can load (`full`/`sanitized`, `release_v1`...). */
  readonly variants: readonly string[];
  readonly defaultVariant: string;
  /** Tokens an answer may take without reasoning. */
  readonly maxTokens: number;
  /** Whether `score` runs code (needs `context.sandbox`): the runner queues those for the pool. */
  readonly needsSandbox: boolean;
  loadItems(options: LoadItemsOptions): Promise<Item[]>;
  /** The prompt; with `thinking` the model will reason first (prompts may differ). */
  buildPrompt(item: Item, options?: PromptOptions): ChatMessage[];
  /**
   * Scores one response: the answer is read from `response.answer` (reasoning already split
   * off); `response.raw` is what the result keeps. Never throws for a bad response: every failure
   * comes back typed in the result. Throws only when scoring itself cannot work (no sandbox for a
   * code benchmark, no python, cancelled through `context.signal`): the run then fails rather than
   * count the question wrong.
   */
  score(item: Item, response: ModelResponse, context: ScoreContext): Promise<QuestionResult>;
}
