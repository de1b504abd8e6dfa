import {
  TokenPredictor,
  type LlamaContextSequence,
  type SequenceEvaluateOptions,
  type Token,
} from "node-llama-cpp";
import type { SpeculationOwnership } from "../SpeculationOwnership.js";
import type { SpeculationSession } from "./SpeculationSession.js";
import type { SpeculationSessionFactory } from "./SpeculationSessionFactory.js";

export interface GatedTokenPredictorOptions {
  ownership: SpeculationOwnership<SpeculationSession>;
  /** Absent when the model does not speculate: the predictor then never predicts. */
  factory?: SpeculationSessionFactory;
  /** A session failed: the scheduler records it and stops speculating for that request. */
  onFailure: (requestId: string, error: unknown) => void;
}

/**
 * The token predictor every sequence of a scheduled context is created with. node-llama-cpp
 * fixes a sequence's predictor at creation, so this one stays and decides per decoding step
 * whether to delegate: it asks the ownership rule, which hands out a session only to the
 * eligible singleton and only lazily (here, right before a decode), and it keeps the owner's
 * timeline itself so a fresh session can be started from it at any step.
 */
export class GatedTokenPredictor extends TokenPredictor {
  private requestId: string | undefined;
  private stateTokens: Token[] = [];
  private inputTokens: Token[] = [];
  private evaluateOptions: Readonly<SequenceEvaluateOptions> = {};
  private targetSequence: LlamaContextSequence | undefined;
  private factory: SpeculationSessionFactory | undefined;
  private hadSession = false;

  constructor(private readonly options: GatedTokenPredictorOptions) {
    super();
    this.factory = options.factory;
  }

  /** Whether the bound request got a speculation session at any step. */
  get speculated(): boolean {
    return this.hadSession;
  }

  /** Stops delegating for good (the model's speculation keeps failing). */
  disableSpeculation(): void {
    this.factory = undefined;
  }

  /** The scheduler hands the sequence to a request (or takes it back with `undefined`). */
  bind(requestId: string | undefined): void {
    this.requestId = requestId;
    this.hadSession = false;
    this.stateTokens = [];
    this.inputTokens = [];
    this.evaluateOptions = {};
  }

  override reset(params: {
    targetSequence: LlamaContextSequence;
    stateTokens: Token[];
    evaluateOptions: Readonly<SequenceEvaluateOptions>;
  }): void {
    this.targetSequence = params.targetSequence;
    this.stateTokens = params.stateTokens.slice();
    this.evaluateOptions = params.evaluateOptions;
    // A new evaluation is a new timeline: the session (if any) is dropped and recreated lazily.
    if (this.requestId) this.options.ownership.restart(this.requestId);
  }

  override pushTokens(tokens: Token[]): void {
    this.stateTokens.push(...tokens);
    this.session()?.push(tokens);
  }

  override predictTokens(): Token[] | Promise<Token[]> {
    const { ownership } = this.options;
    const factory = this.factory;
    const requestId = this.requestId;
    const targetSequence = this.targetSequence;
    if (!factory || !requestId || !targetSequence) return [];
    const session = ownership.acquire(requestId, () =>
      factory.open({
        owner: requestId,
        stateTokens: this.stateTokens,
        inputTokens: this.inputTokens,
        evaluateOptions: this.evaluateOptions,
        targetSequence,
      }),
    );
    if (!session) return [];
    this.hadSession = true;
    return session.predict().catch((error: unknown) => {
      this.options.onFailure(requestId, error);
      ownership.fallback(requestId);
      return [];
    });
  }

  override stop(untilPredictionsExhausted?: boolean): void {
    this.session()?.stop(untilPredictionsExhausted);
  }

  override updateInputTokens(tokens: Token[]): void {
    this.inputTokens = tokens.slice();
    this.session()?.updateInputTokens(tokens);
  }

  override dispose(): void {
    if (this.requestId) this.options.ownership.restart(this.requestId);
    this.requestId = undefined;
  }

  private session(): SpeculationSession | undefined {
    return this.requestId ? this.options.ownership.peek(this.requestId) : undefined;
  }
}
