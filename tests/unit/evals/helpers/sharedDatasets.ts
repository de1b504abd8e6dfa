import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (tests/unit/evals/helpers → four levels up). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** Real benchmark data beside the checkout (`../shared/datasets`): read in place, never copied in. */
export const sharedDatasets = path.resolve(repoRoot, "../shared/datasets");

export const sharedFile = (name: string) => path.join(sharedDatasets, name);
