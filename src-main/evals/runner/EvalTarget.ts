import type { EffectiveSampling } from "../../../src-shared/contracts/accuracy.js";
import type { EvalRunTarget } from "../../../src-shared/contracts/evalQueue.js";
import type { ChatMessage, FinishReason, SamplingOptions } from "../../scheduler/GenerationRequest.js";

/** One generation the runner asks of a target. */
export interface TargetRequest {
  /** Unique per request (the scheduler stamps speculation state with it). */
  requestId: string;
  messages: ChatMessage[];
  sampling: SamplingOptions;
  maxTokens: number;
  /** Whether the model should reason first; targets that cannot switch it ignore it. */
  thinking: boolean;
  /** Aborting must end the generation (and free its slot) promptly. */
  signal: AbortSignal;
}

export interface TargetResponse {
  /** The whole output. Reasoning a server returns separately is put back as `<think>…</think>`. */
  text: string;
  finishReason: FinishReason;
  completionTokens?: number;
  /** Time the request waited for a free sequence; not part of the question's generation time. */
  queueWaitSeconds?: number;
}

/** What a benchmark runs against: a local model or an OpenAI-compatible server. */
export interface EvalTarget {
  /** Recorded as the result's `model_id`. */
  readonly modelId: string;
  readonly description: EvalRunTarget;
  generate(request: TargetRequest): Promise<TargetResponse>;
  /** The sampling this target really sends for `sampling` (what the result records). */
  effectiveSampling(sampling: SamplingOptions): EffectiveSampling;
}
