import type { BenchSection } from "./BenchSection.js";
import { cliStartupSection } from "./cliStartup.js";
import { engineSection } from "./engineBench.js";
import { evalRefillSection } from "./evalRefill.js";
import { evalShapesSection } from "./evalShapes.js";
import { humanEvalRunSection } from "./humanEvalRun.js";
import { peerSection } from "./peer/peerSection.js";
import { perfSection } from "./perf.js";
import { promptCacheSection } from "./promptCacheBench.js";
import { scoringPoolSection } from "./scoringPool.js";
import { schedulerSection } from "./scheduler.js";
import { serverOverheadSection } from "./serverOverhead.js";
import { soak } from "./soak.js";

/** Every section of `npm run bench`, in the order they run. */
export const benchSections: BenchSection[] = [
  cliStartupSection,
  engineSection,
  schedulerSection,
  serverOverheadSection,
  evalRefillSection,
  scoringPoolSection,
  humanEvalRunSection,
  evalShapesSection,
  perfSection,
  soak,
  peerSection,
  promptCacheSection,
];
