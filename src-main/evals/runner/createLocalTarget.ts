import type {
  GenerationRequest,
  GenerationResult,
  SamplingOptions,
} from "../../scheduler/GenerationRequest.js";
import type { EvalTarget } from "./EvalTarget.js";
import { toEffective } from "./resolveSampling.js";

export interface LocalTargetOptions {
  modelId: string;
  /** The scheduler's `generate` (continuous batching over the model's sequences). */
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
}

/**
 * A model served by this process. The thinking switch goes to the scheduler (a format with an
 * off switch gets it; see `createChatWrappers`), and reasoning comes back as a `<think>` block
 * before the answer, as from an external server, so the runner's probe and splitting see it.
 */
export function createLocalTarget(options: LocalTargetOptions): EvalTarget {
  return {
    modelId: options.modelId,
    description: { kind: "local", model_id: options.modelId },
    async generate(request) {
      const result = await options.generate({
        requestId: request.requestId,
        modelId: options.modelId,
        prompt: { kind: "chat", messages: request.messages },
        sampling: request.sampling,
        maxTokens: request.maxTokens,
        thinking: request.thinking,
        signal: request.signal,
      });
      return {
        text: result.reasoning ? `<think>${result.reasoning}</think>${result.text}` : result.text,
        finishReason: result.finishReason,
        completionTokens: result.usage.completionTokens,
        // More generations in flight than the model has sequences: the rest wait in its queue.
        queueWaitSeconds: result.timings.queueWaitMs / 1000,
      };
    },
    effectiveSampling: (sampling: SamplingOptions) => toEffective(sampling),
  };
}
