/*
 * The process the crash-safety test kills. It is bundled (see `crashRounds.ts`) so it starts in
 * half a second, says `ready`, and waits for one line `{"basePath", "seed"}`. Then it starts the
 * storage, settings and catalog services with the real admin HTTP routes (no model is loaded),
 * prints `port <n>`, and writes results through the `ResultStore` as fast as it can, announcing
 * each step on stdout (synchronous on a Linux pipe): `added <id>` once a result is on disk,
 * `deleting <id>` before a delete starts. The parent drives the admin API meanwhile and kills
 * this process with SIGKILL at a random moment.
 */
import readline from "node:readline";
import { createStores } from "../../src-main/core/createStores.js";
import { registerCatalogAdminRoutes } from "../../src-main/server/admin/registerCatalogAdminRoutes.js";
import { createServer } from "../../src-main/server/createServer.js";
import { seededRandom } from "../../src-main/base/seededRandom.js";
import { sampleAccuracyResult, samplePerformanceResult } from "./sampleResults.js";

const say = (line: string) => process.stdout.write(`${line}\n`);

const input = readline.createInterface({ input: process.stdin });
say("ready");
const line = await new Promise<string>((resolve) => input.once("line", resolve));
input.close();
const { basePath, seed, modelId, write } = JSON.parse(line) as {
  basePath: string;
  seed: number;
  modelId: string;
  /** `false`: serve the admin API only (the final check reads a quiet folder). */
  write?: boolean;
};

const services = createStores({ basePath });
const engine = {
  list: () => [],
  load: async () => {},
  unload: async () => false,
  applySettings: () => undefined,
  settingsInEffect: () => undefined,
};
const app = await createServer({
  allowRemoteAdmin: false,
  register: (instance) => registerCatalogAdminRoutes(instance, { ...services, engine }),
});
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
say(`port ${typeof address === "object" && address ? address.port : 0}`);

const random = seededRandom(seed);
const live = (await services.performanceResults.list()).map((result) => result.result_id);
for (let step = 0; write !== false; step += 1) {
  const roll = random();
  if (live.length === 0 || (roll < 0.5 && live.length < 40)) {
    const resultId = `perf-s${seed}-${step}`;
    await services.performanceResults.add(samplePerformanceResult(resultId, modelId));
    live.push(resultId);
    say(`added ${resultId}`);
  } else if (roll < 0.7) {
    await services.accuracyResults.add(sampleAccuracyResult(`acc-s${seed}-${step}`, modelId));
  } else if (roll < 0.9) {
    const [resultId] = live.splice(Math.floor(random() * live.length), 1);
    say(`deleting ${resultId}`);
    await services.performanceResults.delete(resultId!);
  } else {
    const resultId = live[Math.floor(random() * live.length)]!;
    const at = new Date().toISOString();
    await services.performanceResults.put(
      samplePerformanceResult(resultId, modelId, { state: "failed", at, error: "offline" }),
    );
  }
}
