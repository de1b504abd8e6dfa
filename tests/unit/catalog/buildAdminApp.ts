import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import type { FastifyInstance } from "fastify";
import {
  accuracyResultCoreSchema,
  performanceResultCoreSchema,
} from "../../../src-shared/contracts/results.js";
import { createStores } from "../../../src-main/core/createStores.js";
import type { LoadedModelInfo } from "../../../src-main/engine/EnginePool.js";
import {
  registerCatalogAdminRoutes,
  type CatalogRouteDependencies,
} from "../../../src-main/server/admin/registerCatalogAdminRoutes.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { ensureInstanceId } from "../../../src-main/settings/instanceId.js";

/** An engine pool stand-in: tests set `loaded` and read what was unloaded or pinned. */
export class FakeEngine {
  loaded: LoadedModelInfo[] = [];
  unloaded: string[] = [];
  pinned: [string, boolean][] = [];
  list(): LoadedModelInfo[] {
    return this.loaded;
  }
  async load(modelId: string): Promise<void> {
    if (this.loaded.some((info) => info.id === modelId)) return;
    this.loaded.push(loadedInfo(modelId));
    // As the pool does: a load runs with the settings saved (and applied) last.
    this.running.set(modelId, this.latest.get(modelId) ?? {});
  }
  async unload(modelId: string): Promise<boolean> {
    const had = this.loaded.some((info) => info.id === modelId);
    this.loaded = this.loaded.filter((info) => info.id !== modelId);
    if (had) this.unloaded.push(modelId);
    return had;
  }
  applySettings(modelId: string, settings: ModelSettings): void {
    this.pinned.push([modelId, settings.pinned ?? false]);
    this.latest.set(modelId, settings);
  }
  private readonly latest = new Map<string, ModelSettings>();
  /** The settings handed to the engine last for `modelId` (what its next request runs with). */
  applied(modelId: string): ModelSettings | undefined {
    return this.latest.get(modelId);
  }
  /** The settings each loaded model was loaded with. */
  running = new Map<string, ModelSettings>();
  settingsInEffect(modelId: string): ModelSettings | undefined {
    return this.loaded.some((info) => info.id === modelId) ? this.running.get(modelId) : undefined;
  }
}

export function loadedInfo(id: string, activeUsers = 0): LoadedModelInfo {
  return {
    id,
    state: "loaded",
    activeUsers,
    pinned: false,
    ttlSeconds: 900,
    ttlSuspended: false,
    estimatedBytes: 1,
    loadedAt: 1,
    lastUsedAt: 2,
  };
}

/** Stores whose results need only the core fields (tests write small sample results). */
type CoreSchemaStores = ReturnType<
  typeof createStores<typeof accuracyResultCoreSchema, typeof performanceResultCoreSchema>
>;

/** The admin routes of this issue on a real server (security hooks included), over `basePath`. */
export async function buildAdminApp(
  basePath: string,
  options: { env?: NodeJS.ProcessEnv; apiKey?: string } = {},
): Promise<{ app: FastifyInstance; services: CoreSchemaStores; engine: FakeEngine }> {
  const engine = new FakeEngine();
  const services = createStores({
    basePath,
    env: options.env ?? {},
    accuracySchema: accuracyResultCoreSchema,
    performanceSchema: performanceResultCoreSchema,
  });
  const app = await createServer({
    instanceId: ensureInstanceId(basePath),
    allowRemoteAdmin: false,
    apiKey: options.apiKey,
    register: (server) =>
      registerCatalogAdminRoutes(server, { ...services, engine } as unknown as CatalogRouteDependencies),
  });
  return { app, services, engine };
}
