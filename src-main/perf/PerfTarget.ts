import type { PerfModelInfo, PerfTargetInfo } from "../../src-shared/contracts/performance.js";
import type { ModelFile } from "../../src-shared/contracts/results.js";

/** One timed request, as a target measured it. Times are `performance.now()` milliseconds. */
export interface PerfSample {
  promptTokens: number;
  generatedTokens: number;
  /** Prompt tokens served from a cache (should be 0: every prompt has a unique prefix). */
  cachedPromptTokens: number;
  /** When the request was handed to the target. */
  submittedAt: number;
  /** Waiting for a free slot before the engine started on the prompt. */
  queueWaitMs: number;
  /** When the first generated token was there. */
  firstTokenAt: number;
  /** When the last token was there (the request resolved). */
  endedAt: number;
  /** Engine-reported rates, preferred over client-side ones when present (no client overhead). */
  promptTokensPerSecond?: number;
  generationTokensPerSecond?: number;
}

/** A text prompt and the number of tokens the target will evaluate for it. */
export interface PerfPrompt {
  text: string;
  /** Exact for local targets; an estimate for external ones (the sample reports the truth). */
  expectedTokens: number;
}

/** Something a performance run can measure: a local model through the scheduler, or an HTTP endpoint. */
export interface PerfTarget {
  readonly info: PerfTargetInfo;
  /** The model id results are stored under. */
  readonly modelId: string;
  readonly model: PerfModelInfo;
  /** The local model's file (absent for an external endpoint). */
  readonly modelFile?: ModelFile;
  /** Most tokens (prompt + generated) one request may use; null when unknown (external). */
  readonly contextSize: number | null;
  /** Most requests served at once; larger batch tests would measure queueing. Null when unknown. */
  readonly maxConcurrent: number | null;
  readonly backend: string | null;
  readonly threads: number | null;
  /** Active settings that make results incomparable with stock runs (blocks uploads). */
  readonly experimentalFeatures: string[];
  /** Loads what is needed and runs one short request so the first test does not pay for it. */
  warmUp(signal: AbortSignal): Promise<void>;
  /** A prompt of exactly `tokens` tokens starting with a prefix no earlier prompt of this target used. */
  buildPrompt(tokens: number): PerfPrompt;
  generate(prompt: PerfPrompt, maxTokens: number, signal: AbortSignal): Promise<PerfSample>;
  /**
   * Requests of other clients the model served since the target was created (they shared the
   * decodes being measured); absent when the target cannot tell (external endpoints).
   */
  otherRequests?(): number;
  /** Bytes of GPU memory the engine uses now; null when it cannot tell. */
  gpuBytes(): Promise<number | null>;
  close(): Promise<void>;
}
