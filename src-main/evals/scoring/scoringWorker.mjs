// Piscina loads its worker file with Node's own loader, which cannot read TypeScript: a compiled
// build has scoringWorker.js beside this file; a source checkout (tsx, vitest) registers tsx in
// the worker thread first. Plain JS on purpose.
import { existsSync } from "node:fs";

const compiled = new URL("./scoringWorker.js", import.meta.url);
let target = compiled;
if (!existsSync(compiled)) {
  const { register } = await import("tsx/esm/api");
  register();
  target = new URL("./scoringWorker.ts", import.meta.url);
}
const worker = await import(target.href);

export default worker.default;
export const stopScoringWorker = worker.stopScoringWorker;
