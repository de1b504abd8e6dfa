import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import { defaultContextSizeCap } from "../scheduler/createModelLane.js";

/**
 * The context size a model runs with: its `context_size` setting, else its training context
 * capped (the scheduler's rule, imported so the two cannot drift). Prompt lengths that do not
 * fit in it together with the generated tokens are skipped.
 */
export function resolveContextSize(settings: ModelSettings, trainContextSize: number | null): number {
  if (settings.context_size !== undefined) return settings.context_size;
  return Math.min(trainContextSize ?? defaultContextSizeCap, defaultContextSizeCap);
}
