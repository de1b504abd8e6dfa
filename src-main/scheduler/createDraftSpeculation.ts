import type { SpeculativeSettings } from "../../src-shared/contracts/settings.js";
import { createLogger } from "../base/createLogger.js";
import type { EnginePool } from "../engine/EnginePool.js";
import type { LoadedModel } from "../engine/LoadedModel.js";
import type { LaneSpeculation } from "./LaneSpeculation.js";
import { createDraftSessionFactory } from "./speculation/createDraftSessionFactory.js";

const log = createLogger("scheduler");
let attachmentCount = 0;

/**
 * Draft-model speculation for one target lane. The draft is acquired from the pool like any model
 * (held until the lane goes) and gets its own one-sequence context. When the draft model is
 * unloaded on its own, its attachment hook stops speculation and frees that context before the
 * model goes, so no draft step is left running on a disposed model.
 */
export async function createDraftSpeculation(
  loaded: LoadedModel,
  engine: EnginePool,
  contextSize: number,
  speculative: SpeculativeSettings,
  minConfidence: number | undefined,
): Promise<LaneSpeculation> {
  const draftId = speculative.draftModel;
  if (!draftId) {
    log.warn({ modelId: loaded.id }, "speculative mode 'draft' without draftModel; speculation is off");
    return {};
  }
  // A model drafting for itself shares its weights: acquiring it again would pin it forever.
  const draft =
    draftId === loaded.id
      ? loaded
      : await engine.acquire(draftId, { draftFor: loaded.id }).catch((error: unknown) => error as Error);
  if (draft instanceof Error) {
    // Serve without speculation rather than not at all; the log says why.
    log.warn(
      { modelId: loaded.id, draftId, err: draft.message },
      "draft model unavailable; speculation is off",
    );
    return {};
  }
  const releaseDraft = () => {
    if (draft !== loaded) engine.release(draft, { draftFor: loaded.id });
  };
  let draftContext;
  try {
    draftContext = await draft.model.createContext({ contextSize, sequences: 1, threads: draft.threads });
  } catch (error) {
    releaseDraft();
    throw error;
  }
  const context = draftContext;
  const factory = createDraftSessionFactory(context, {
    maxTokens: speculative.maxDraftTokens,
    minTokens: speculative.minDraftTokens,
    minConfidence,
  });
  let stopLane: ((reason: string) => void) | undefined;
  let stopped: Promise<void> | undefined;
  const stop = (reason: string) =>
    (stopped ??= (async () => {
      stopLane?.(reason);
      await factory.dispose();
      await context.dispose();
      releaseDraft();
    })());
  if (draft !== loaded) {
    attachmentCount += 1;
    draft.attach(`scheduler.draft:${loaded.id}:${attachmentCount}`, () => ({
      value: true,
      dispose: () => stop(`draft model '${draftId}' unloaded`),
    }));
  }
  return {
    factory,
    disposeSpeculation: () => stop("model unloaded"),
    bindLane: (lane) => (stopLane = (reason) => lane.disableSpeculation(reason)),
  };
}
