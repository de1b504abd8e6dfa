import type { SplitOutput } from "../../../src-shared/text/splitThinking.js";

/**
 * A model's output as a benchmark scores it: split once by the runner (`splitResponse`) into the
 * reasoning and the answer, with the whole output kept for the result.
 */
export interface ModelResponse extends SplitOutput {
  /** The output as the model wrote it, reasoning included: the result's `response`. */
  raw: string;
}
