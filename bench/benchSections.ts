import type { BenchSection } from "./BenchSection.js";
import { engineSection } from "./engineBench.js";

/** Every section of `npm run bench`, in the order they run. */
export const benchSections: BenchSection[] = [engineSection];
