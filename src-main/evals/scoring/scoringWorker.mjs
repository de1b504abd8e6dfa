// The worker entry when Perch runs from its TypeScript sources (tsx, vitest): piscina loads this
// with Node's own loader, so it registers tsx in the worker thread, then loads the real worker.
// Plain JS on purpose; a compiled build loads scoringWorker.js directly (see SandboxPool.ts).
import { register } from "tsx/esm/api";

register();
const worker = await import(new URL("./scoringWorker.ts", import.meta.url).href);

export default worker.default;
export const stopScoringWorker = worker.stopScoringWorker;
