import type { ProgramFeatures } from "./predictNextToken.js";

export type TestModelVariant = "test" | "draft" | "realistic" | "fim";

export interface TestModelShape {
  embeddingLength: number;
  blockCount: number;
  feedForwardLength: number;
  headCount: number;
  headCountKv: number;
  contextLength: number;
  ropeFreqBase: number;
  rmsEpsilon: number;
  features: ProgramFeatures;
  /** Base of the file name; the quantization and extension are appended. */
  fileStem: string;
  /** `general.name`. */
  displayName: string;
  /** Fill-in-the-middle control tokens in the vocabulary and their GGUF keys. Defaults to `false`. */
  fillInTheMiddle?: boolean;
}

const common = { contextLength: 4096, ropeFreqBase: 1_000_000, rmsEpsilon: 1e-6 } as const;

const test: TestModelShape = {
  ...common,
  embeddingLength: 128,
  blockCount: 3,
  feedForwardLength: 256,
  headCount: 4,
  headCountKv: 2,
  features: { draftFlip: true, stop: true },
  fileStem: "perch-test-model-random-weights",
  displayName: "Perch test model (random weights, ChatML template, not a language model)",
};

/**
 * The generated models. "test" and "draft" are tiny (CI); "realistic" has the layer shapes of a
 * ~0.5B chat model (Qwen2.5-0.5B) with our 1k vocabulary, for benchmarks only; "fim" is "test"
 * with fill-in-the-middle tokens (its own tokenizer, so not a draft partner of the others).
 */
export const testModelShapes: Record<TestModelVariant, TestModelShape> = {
  test,
  draft: {
    ...common,
    embeddingLength: 128,
    blockCount: 2,
    feedForwardLength: 128,
    headCount: 4,
    headCountKv: 2,
    features: { draftFlip: false, stop: false },
    fileStem: "perch-test-draft-random-weights",
    displayName: "Perch test draft model (random weights, ChatML template, not a language model)",
  },
  realistic: {
    ...common,
    embeddingLength: 896,
    blockCount: 24,
    feedForwardLength: 4864,
    headCount: 14,
    headCountKv: 2,
    // Benchmarks want generations that run to max_tokens: no stop rule.
    features: { draftFlip: true, stop: false },
    fileStem: "perch-realistic-model-random-weights",
    displayName: "Perch realistic-size test model (random weights, ChatML template, not a language model)",
  },
  fim: {
    ...test,
    fileStem: "perch-test-fim-model-random-weights",
    displayName:
      "Perch fill-in-the-middle test model (random weights, ChatML template, not a language model)",
    fillInTheMiddle: true,
  },
};
