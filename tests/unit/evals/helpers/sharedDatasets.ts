import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (tests/unit/evals/helpers → four levels up). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * Real benchmark data beside the checkout (`../shared/datasets`, or `PERCH_SHARED_DATASETS` for a
 * checkout elsewhere, as e2e/seedHumanEvalCache.ts reads it): read in place, never copied in.
 */
export const sharedDatasets = path.resolve(
  repoRoot,
  process.env.PERCH_SHARED_DATASETS ?? "../shared/datasets",
);

export const sharedFile = (name: string) => path.join(sharedDatasets, name);
