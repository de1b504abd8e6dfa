import type { Token, TokenPredictor } from "node-llama-cpp";

export type SpeculationKind = "draft" | "lookup";

/**
 * One owner's speculation: a library `TokenPredictor` created fresh for one request timeline.
 * It is created asynchronously (a draft model first evaluates the timeline) and closed
 * synchronously by the ownership rule; after `close` it predicts nothing, whatever is in flight.
 */
export class SpeculationSession {
  private predictor: TokenPredictor | undefined;
  private isClosed = false;
  private resolveClosed: () => void = () => undefined;
  private readonly closedPromise = new Promise<void>((resolve) => (this.resolveClosed = resolve));
  /** Settles when the predictor is ready; rejects when it could not be created. */
  readonly ready: Promise<void>;

  constructor(
    readonly owner: string,
    readonly kind: SpeculationKind,
    create: (isClosed: () => boolean) => Promise<TokenPredictor | undefined>,
    private readonly release: (predictor: TokenPredictor | undefined) => void,
  ) {
    this.ready = create(() => this.isClosed).then((predictor) => {
      if (this.isClosed) {
        if (predictor) this.release(predictor);
        return;
      }
      this.predictor = predictor;
    });
    // `predict` surfaces the failure; this keeps a session closed before anyone awaited it quiet.
    this.ready.catch(() => undefined);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  async predict(): Promise<Token[]> {
    await this.ready;
    if (this.isClosed || !this.predictor) return [];
    // A DraftSequenceTokenPredictor waiting for `minTokens` never answers once disposed
    // (node-llama-cpp 3.21.1 does not flush its waiters), which would stall the target's decode
    // forever: closing the session answers for it.
    const tokens = await Promise.race([this.predictor.predictTokens(), this.closedPromise.then(() => [])]);
    // Predictions finished after a reshape belong to a dropped timeline: never hand them out.
    return this.isClosed ? [] : tokens.slice();
  }

  push(tokens: Token[]): void {
    if (!this.isClosed) this.predictor?.pushTokens(tokens);
  }

  stop(untilPredictionsExhausted?: boolean): void {
    if (!this.isClosed) void this.predictor?.stop(untilPredictionsExhausted);
  }

  updateInputTokens(tokens: Token[]): void {
    if (!this.isClosed) this.predictor?.updateInputTokens(tokens);
  }

  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.resolveClosed();
    const predictor = this.predictor;
    this.predictor = undefined;
    // A predictor still being created is released by the `ready` handler above.
    if (predictor) this.release(predictor);
  }
}
