import type { EffectiveSampling, SamplingProfile } from "../../../src-shared/contracts/accuracy.js";
import type { SamplingSettings } from "../../../src-shared/contracts/settings.js";
import type { SamplingOptions } from "../../scheduler/GenerationRequest.js";

/** The sampling a benchmark run sends, and the same values as recorded in its result. */
export interface ResolvedSampling {
  profile: SamplingProfile;
  sampling: SamplingOptions;
  effective: EffectiveSampling;
}

/**
 * Greedy decoding with every penalty neutral and a fixed seed: the same model scores the same
 * twice, and a model's penalties cannot hide or cause failures (repeat penalties break code).
 */
export const deterministicSampling: Readonly<SamplingOptions> = Object.freeze({
  temperature: 0,
  topP: 1,
  topK: 0,
  minP: 0,
  seed: 42,
  presencePenalty: 0,
  frequencyPenalty: 0,
  repeatPenalty: 1,
});

/**
 * Picks the sampling of a profile. `model_settings` uses the model's saved sampling; fields the
 * model does not set are left to the target (and so are absent from `effective`).
 */
export function resolveSampling(
  profile: SamplingProfile,
  modelSampling?: SamplingSettings,
): ResolvedSampling {
  switch (profile) {
    case "deterministic":
      return {
        profile,
        sampling: { ...deterministicSampling },
        effective: toEffective(deterministicSampling),
      };
    case "model_settings": {
      const sampling = fromSettings(modelSampling ?? {});
      return { profile, sampling, effective: toEffective(sampling) };
    }
    default:
      return profile satisfies never;
  }
}

function fromSettings(settings: SamplingSettings): SamplingOptions {
  return dropUndefined({
    temperature: settings.temperature,
    topP: settings.top_p,
    topK: settings.top_k,
    minP: settings.min_p,
    presencePenalty: settings.presence_penalty,
    frequencyPenalty: settings.frequency_penalty,
    repeatPenalty: settings.repetition_penalty,
  });
}

/** The snake_case record stored with results (and sent as is to OpenAI-compatible servers). */
export function toEffective(sampling: SamplingOptions): EffectiveSampling {
  return dropUndefined({
    temperature: sampling.temperature,
    top_p: sampling.topP,
    top_k: sampling.topK,
    min_p: sampling.minP,
    seed: sampling.seed,
    presence_penalty: sampling.presencePenalty,
    frequency_penalty: sampling.frequencyPenalty,
    repeat_penalty: sampling.repeatPenalty,
  });
}

function dropUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
