import { type LlamaContext, type LlamaGrammar, type TokenBias } from "node-llama-cpp";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import type { LoadedModel } from "../engine/LoadedModel.js";
import type { GenerationRequest, GenerationResult } from "./GenerationRequest.js";
import { RequestQueue } from "./RequestQueue.js";
import type { DecodeShaper } from "./DecodeShaper.js";
import type { DecodeThreads } from "./DecodeThreads.js";
import type { ModelSchedulerStats } from "../../src-shared/contracts/stats.js";
import type { SequenceSlot } from "./SequenceSlot.js";
import { pickSlot } from "./pickSlot.js";
import { type GatheringTicket, PromptGathering, PromptPace } from "./PromptGathering.js";
import { SpeculationOwnership } from "./SpeculationOwnership.js";
import { ThroughputMeter } from "./ThroughputMeter.js";
import { createChatWrappers, type ChatWrappers } from "./createChatWrappers.js";
import { createEndOfGenerationBias } from "./createEndOfGenerationBias.js";
import { generateOnSequence, type SequenceRunResult } from "./generateOnSequence.js";
import { prepareRequest, type PrepareContext, type PreparedRequest } from "./prepareRequest.js";
import { GatedTokenPredictor } from "./speculation/GatedTokenPredictor.js";
import type { SpeculationSession } from "./speculation/SpeculationSession.js";
import type { SpeculationSessionFactory } from "./speculation/SpeculationSessionFactory.js";
import type { LaneSpeculation } from "./LaneSpeculation.js";
import { errorMessage } from "../base/describeError.js";
import type { PromptCache } from "./promptCache/PromptCache.js";

const log = createLogger("scheduler");

/** Speculation failures after which a model stops speculating until it reloads. */
const maxSpeculationFailures = 3;
/** The longest a ready request waits for the others that arrived with it (see PromptGathering). */
const promptGatheringLimitMs = 250;
/**
 * At an idle lane, a ready request waits until no request arrived for this share of what its prompt
 * will take, at most the cap (see PromptGathering and PromptPace).
 */
const promptQuietShare = 0.02;
const promptQuietCapMs = 8;

export interface ModelLaneInit extends LaneSpeculation {
  loaded: LoadedModel;
  context: LlamaContext;
  promptCache: PromptCache;
  /** Chooses which one-token decodes run together; absent when decode shaping is off. */
  decodeShaper?: DecodeShaper;
  /** Chooses the thread count of each small decode; absent when that choice is off. */
  decodeThreads?: DecodeThreads;
  /** Gives the context's bytes back to the pool's memory budget (`EnginePool.reserve`). */
  releaseMemory?: () => void;
}

/**
 * One loaded model's continuous-batching lane: one context, one sequence per concurrent request,
 * a bounded FIFO for the rest, and the speculation ownership of that batch. node-llama-cpp puts
 * the pending evaluations of all sequences of a context into one decode, so the lane only has to
 * keep sequences busy; it never drives decode steps itself.
 */
export class ModelLane {
  readonly modelId: string;
  readonly contextSize: number;
  private readonly slots: SequenceSlot[];
  private readonly queue: RequestQueue<SequenceSlot>;
  private readonly ownership = new SpeculationOwnership<SpeculationSession>({
    drop: (session, owner, reason) => {
      log.debug({ modelId: this.modelId, owner, reason }, "speculation state dropped");
      session.close();
    },
  });
  private readonly throughput = new ThroughputMeter();
  private readonly gathering = new PromptGathering(promptGatheringLimitMs);
  private readonly promptPace = new PromptPace(promptQuietShare, promptQuietCapMs);
  private readonly chatWrappers: ChatWrappers;
  private readonly requestIds = new Set<string>();
  private readonly counts = { completed: 0, cancelled: 0, rejected: 0, failed: 0 };
  private readonly speculativeTotals = { validated: 0, refuted: 0 };
  private factory: SpeculationSessionFactory | undefined;
  private speculationFailures = 0;
  private jsonGrammar: Promise<LlamaGrammar> | undefined;
  private endOfGenerationBias: TokenBias | undefined;
  private disposed = false;

  constructor(private readonly init: ModelLaneInit) {
    const { loaded, context } = init;
    this.modelId = loaded.id;
    this.contextSize = context.contextSize;
    this.factory = init.factory;
    // A chosen format overrides what the GGUF's template resolves to (a template node-llama-cpp
    // does not recognise, or a fine-tune that kept its base model's template).
    this.chatWrappers = createChatWrappers(loaded.model, loaded.settings.chat_format);
    this.queue = new RequestQueue(() => loaded.settings.max_queue ?? 64);
    this.slots = Array.from({ length: context.totalSequences }, (_, index) => {
      // Only a speculating model gets predictors: a sequence with one always takes node-llama-cpp's
      // speculative path, which for recurrent and hybrid models checkpoints the state every step.
      const predictor = this.factory
        ? new GatedTokenPredictor({
            ownership: this.ownership,
            factory: this.factory,
            onFailure: (requestId, error) => this.onSpeculationFailure(requestId, error),
          })
        : undefined;
      return {
        index,
        predictor,
        sequence: context.getSequence(predictor ? { tokenPredictor: predictor } : {}),
        lastUsedAt: 0,
      };
    });
  }

  /**
   * The prompt tokens `request` would put in a sequence (the chat template, tools and all), without
   * queueing or generating; a prompt too long for the context still gets its count.
   */
  async countPromptTokens(request: GenerationRequest): Promise<number> {
    try {
      return (await prepareRequest(request, this.prepareContext(request))).promptTokens.length;
    } catch (error) {
      const counted = (error as { details?: { promptTokens?: unknown } }).details?.promptTokens;
      if (
        error instanceof PerchError &&
        error.code === "context_length_exceeded" &&
        typeof counted === "number"
      )
        return counted;
      throw error;
    }
  }

  private prepareContext(request: GenerationRequest): PrepareContext {
    const chatWrapper = request.thinking === false ? this.chatWrappers.noThinking : this.chatWrappers.default;
    return {
      llama: this.init.loaded.llama,
      model: this.init.loaded.model,
      chatWrapper,
      contextSize: this.contextSize,
      settings: this.init.loaded.settings,
      jsonGrammar: () => (this.jsonGrammar ??= this.init.loaded.llama.getGrammarFor("json")),
      endOfGenerationBias: () =>
        (this.endOfGenerationBias ??= createEndOfGenerationBias(this.init.loaded.model)),
    };
  }

  /** `times`: when the scheduler received the request, and when its model and context were ready. */
  async generate(
    request: GenerationRequest,
    times: { receivedAt: number; loadedAt: number },
  ): Promise<GenerationResult> {
    if (this.requestIds.has(request.requestId)) {
      throw new PerchError("invalid_request", `Request id '${request.requestId}' is already in flight.`);
    }
    const together = request.choicesTogether ?? 1;
    const maxQueue = this.init.loaded.settings.max_queue ?? 64;
    if (together > this.slots.length + maxQueue) {
      throw new PerchError(
        "invalid_request",
        `This request asks for ${together} choices at once (n × prompts); ${this.modelId} holds at most ` +
          `${this.slots.length + maxQueue} (${this.slots.length} sequences and a queue of ${maxQueue}). ` +
          "Ask for fewer, or raise max_concurrent_requests or max_queue in the model's settings.",
        { param: "n" },
      );
    }
    this.requestIds.add(request.requestId);
    // Counted as readying from here (before its prompt is even rendered) until its prompt starts, or
    // it ends: see PromptGathering.
    let gathered = this.gathering.arrive();
    try {
      const prepared = await prepareRequest(request, this.prepareContext(request));
      const arrivedAt = performance.now();
      let slot = this.admitNow(prepared);
      if (!slot) {
        // It waits for a slot, so it will not start with the requests around it.
        gathered.leave();
        slot = await this.admitQueued(prepared);
        gathered = this.gathering.arrive();
      }
      return await this.run(prepared, slot, gathered, { ...times, arrivedAt });
    } catch (error) {
      gathered.leave();
      if (error instanceof PerchError && error.code === "queue_full") this.counts.rejected += 1;
      else if (error instanceof PerchError && error.code === "cancelled") this.counts.cancelled += 1;
      throw error;
    } finally {
      this.requestIds.delete(request.requestId);
    }
  }

  stats(): ModelSchedulerStats {
    const tokens = this.throughput.tokensInWindow();
    return {
      modelId: this.modelId,
      sequences: this.slots.length,
      activeSequences: this.slots.filter((slot) => slot.requestId !== undefined).length,
      queueDepth: this.queue.length,
      maxQueue: this.init.loaded.settings.max_queue ?? 64,
      contextSize: this.contextSize,
      generatedTokensLastMinute: tokens,
      tokensPerSecond: tokens / 60,
      requests: { ...this.counts },
      speculation: {
        mode: this.init.factory?.kind ?? "off",
        enabled: this.factory !== undefined,
        owner: this.ownership.owner ?? null,
        sessionsCreated: this.ownership.created,
        sessionsDropped: this.ownership.dropped,
        validatedTokens: this.speculativeTotals.validated,
        refutedTokens: this.speculativeTotals.refuted,
      },
      promptCache: this.init.promptCache.stats(),
      decodeShaping: this.init.decodeShaper?.stats() ?? {
        enabled: false,
        decodes: 0,
        chunkedDecodes: 0,
        gapMs: 0,
        sizes: [],
      },
      decodeThreads: this.init.decodeThreads?.stats() ?? {
        threads: this.init.context.currentThreads,
        decodes: 0,
        oneThreadDecodes: 0,
        sizes: [],
      },
    };
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.queue.rejectAll(new PerchError("generation_failed", `Model '${this.modelId}' was unloaded.`));
    this.ownership.dispose();
    await this.init.factory?.dispose();
    await this.init.disposeSpeculation?.();
    // Slots keep their last use on the monotonic clock; the cache's entries on the wall clock.
    const wallClockOffset = Date.now() - performance.now();
    const idle = this.slots
      .filter((slot) => slot.requestId === undefined)
      .map((slot) => ({
        sequence: slot.sequence,
        ...(slot.lastUsedAt > 0 ? { usedAt: slot.lastUsedAt + wallClockOffset } : {}),
      }));
    await this.init.promptCache.close(idle);
    await this.init.context.dispose();
    this.init.releaseMemory?.();
  }

  /** A free slot for the request, or undefined when it must queue (`admitQueued`). */
  private admitNow(prepared: PreparedRequest): SequenceSlot | undefined {
    if (this.disposed) throw new PerchError("generation_failed", `Model '${this.modelId}' was unloaded.`);
    if (prepared.request.signal?.aborted) throw new PerchError("cancelled", "The request was cancelled.");
    // FIFO: while anyone waits, a newcomer queues behind them even if a slot is about to free.
    const free = this.queue.length === 0 ? pickSlot(this.slots, prepared.promptTokens) : undefined;
    if (free) free.requestId = prepared.request.requestId;
    return free;
  }

  private async admitQueued(prepared: PreparedRequest): Promise<SequenceSlot> {
    const slot = await this.queue.wait(prepared.request.signal);
    slot.requestId = prepared.request.requestId;
    return slot;
  }

  private async run(
    prepared: PreparedRequest,
    slot: SequenceSlot,
    gathered: GatheringTicket,
    times: { receivedAt: number; loadedAt: number; arrivedAt: number },
  ): Promise<GenerationResult> {
    const { request } = prepared;
    const admittedAt = performance.now();
    const before = slot.sequence.tokenPredictions;
    let firstTokenAt: number | undefined;
    let completionTokens = 0;
    let speculated: boolean | undefined;
    let after: typeof before | undefined;
    let restored: boolean;
    let startedAlone = false;
    let promptStartedAt: number | undefined;
    try {
      // Before the predictor is bound: a restored sequence starts with no speculative state.
      // `prepare` handles its own failures; the catch only keeps the slot from leaking if it ever threw.
      restored = await this.init.promptCache.prepare(slot.sequence, prepared.promptTokens).catch(() => false);
      slot.predictor?.bind(request.requestId);
      this.ownership.join(request.requestId, {
        eligible: prepared.speculationEligible && this.factory !== undefined,
      });
    } catch (error) {
      slot.predictor?.bind(undefined);
      this.release(slot);
      throw error;
    }
    // A target waiting for drafted tokens would see the abort only after they came: drop them now.
    const stopSpeculating = () => this.ownership.fallback(request.requestId);
    request.signal?.addEventListener("abort", stopSpeculating, { once: true });
    let outcome: SequenceRunResult;
    try {
      outcome = await generateOnSequence(prepared, slot.sequence, {
        onText: (text, logprobs) => {
          if (!request.signal?.aborted) request.onText?.(text, logprobs);
        },
        onReasoning: (text) => {
          if (!request.signal?.aborted) request.onReasoning?.(text);
        },
        onTokens: (count) => {
          firstTokenAt ??= performance.now();
          completionTokens += count;
          this.throughput.record(count);
        },
        beforePrompt: async (evaluating) => {
          const promptTokens = prepared.promptTokens.length;
          if (!request.signal?.aborted)
            request.onPromptStart?.({
              promptTokens,
              cachedPromptTokens: promptTokens - evaluating,
              canThink:
                prepared.history !== undefined &&
                prepared.chatWrapper.settings.segments?.thought !== undefined,
            });
          startedAlone = await gathered.ready(this.promptPace.quietMsFor(evaluating));
          promptStartedAt = performance.now();
        },
      });
    } catch (error) {
      if (!request.signal?.aborted) {
        this.counts.failed += 1;
        log.error(
          { modelId: this.modelId, requestId: request.requestId, err: errorMessage(error) },
          "generation failed",
        );
        throw error instanceof PerchError
          ? error
          : new PerchError("generation_failed", `Generation failed: ${errorMessage(error)}`);
      }
      outcome = { text: "", reasoning: "", finishReason: "cancelled", cachedPromptTokens: 0 };
    } finally {
      gathered.leave();
      request.signal?.removeEventListener("abort", stopSpeculating);
      speculated = slot.predictor?.speculated;
      // Read before the sequence is handed to the next request.
      after = slot.sequence.tokenPredictions;
      this.ownership.leave(request.requestId);
      slot.predictor?.bind(undefined);
      this.release(slot);
    }
    const validated = (after?.validated ?? before.validated) - before.validated;
    const refuted = (after?.refuted ?? before.refuted) - before.refuted;
    this.speculativeTotals.validated += validated;
    this.speculativeTotals.refuted += refuted;
    if (outcome.finishReason === "cancelled") this.counts.cancelled += 1;
    else this.counts.completed += 1;
    this.init.promptCache.record(prepared.promptTokens.length, outcome.cachedPromptTokens, restored);

    const finishedAt = performance.now();
    const first = firstTokenAt ?? finishedAt;
    const evaluatedPrompt = prepared.promptTokens.length - outcome.cachedPromptTokens;
    if (startedAlone && firstTokenAt !== undefined && promptStartedAt !== undefined) {
      this.promptPace.record(firstTokenAt - promptStartedAt, evaluatedPrompt);
    }
    return {
      requestId: request.requestId,
      text: outcome.text,
      ...(outcome.reasoning ? { reasoning: outcome.reasoning } : {}),
      ...(outcome.toolCalls ? { toolCalls: outcome.toolCalls } : {}),
      ...(outcome.unfinishedToolCalls ? { unfinishedToolCalls: outcome.unfinishedToolCalls } : {}),
      ...(outcome.stopSequence !== undefined ? { stopSequence: outcome.stopSequence } : {}),
      ...(outcome.logprobs ? { logprobs: outcome.logprobs } : {}),
      finishReason: outcome.finishReason,
      usage: {
        promptTokens: prepared.promptTokens.length,
        completionTokens,
        cachedPromptTokens: outcome.cachedPromptTokens,
      },
      timings: {
        loadMs: times.loadedAt - times.receivedAt,
        queueWaitMs: admittedAt - times.arrivedAt,
        ttftMs: first - admittedAt,
        generationMs: finishedAt - first,
        promptTokensPerSecond: perSecond(evaluatedPrompt, first - admittedAt),
        generationTokensPerSecond: perSecond(completionTokens - 1, finishedAt - first),
        totalMs: finishedAt - times.receivedAt,
      },
      ...(speculated || validated + refuted > 0 ? { speculative: { validated, refuted } } : {}),
    };
  }

  /** Gives the slot to the oldest waiter, or marks it free. */
  private release(slot: SequenceSlot): void {
    slot.lastUsedAt = performance.now();
    slot.requestId = undefined;
    if (this.disposed) return;
    // Reserve before handing off: the waiter resumes a microtask later and a newcomer must not take it.
    slot.requestId = "(handing off)";
    if (!this.queue.handOff(slot)) slot.requestId = undefined;
  }

  /** Stops speculating until the model reloads: live state is dropped, no session opens again. */
  disableSpeculation(reason: string): void {
    if (!this.factory) return;
    log.warn({ modelId: this.modelId, reason }, "speculation disabled for this model until it reloads");
    this.factory = undefined;
    for (const slot of this.slots) slot.predictor?.disableSpeculation();
    const owner = this.ownership.owner;
    if (owner) this.ownership.fallback(owner);
  }

  private onSpeculationFailure(requestId: string, error: unknown): void {
    this.speculationFailures += 1;
    log.warn(
      { modelId: this.modelId, requestId, err: errorMessage(error) },
      "speculation failed; continuing without it",
    );
    if (this.speculationFailures >= maxSpeculationFailures) {
      this.disableSpeculation(`${this.speculationFailures} speculation failures`);
    }
  }
}

function perSecond(count: number, ms: number): number {
  return count > 0 && ms > 0 ? count / (ms / 1000) : 0;
}
