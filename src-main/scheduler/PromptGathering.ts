/**
 * Requests admitted together start evaluating their prompts together. Each admitted request first
 * readies its sequence (the prompt cache saves what the sequence held or restores a prefix, then
 * the old tokens are erased), which takes a varying time. The first one ready used to start its
 * prompt alone and the others joined later decodes in groups: at 8 clients on 2 threads (realistic
 * model, slots holding earlier answers) a round ran at 58 tok/s against 67 tok/s with all eight
 * prompts in one batch, since a bigger batch costs less per prompt token and a decode that mixes
 * prompts with other sequences' one-token steps splits into more ubatches.
 *
 * So a request that is ready waits until no admitted request is still readying its sequence, or
 * `limitMs` passed (a slow restore must not hold the others back for long). A lone request, or
 * one admitted while the others generate, does not wait.
 */
export class PromptGathering {
  private readying = 0;
  private readonly waiters = new Set<() => void>();

  constructor(private readonly limitMs: number) {}

  /**
   * Counts an admitted request as readying. Exactly one of the returned calls ends that: `ready`
   * (its sequence is ready: resolves when the others are, or at the limit) or `leave` (it gave up
   * before, e.g. failed or was cancelled: returns at once). Later calls do nothing.
   */
  enter(): { ready: () => Promise<void>; leave: () => void } {
    this.readying += 1;
    let counted = true;
    const leave = () => {
      if (!counted) return;
      counted = false;
      this.readying -= 1;
      if (this.readying === 0) {
        for (const wake of [...this.waiters]) wake();
      }
    };
    const ready = async () => {
      if (!counted) return;
      leave();
      if (this.readying === 0) return;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, this.limitMs);
        this.waiters.add(wake);
      });
    };
    return { ready, leave };
  }
}
