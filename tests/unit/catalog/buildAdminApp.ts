import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import type { FastifyInstance } from "fastify";
import {
  accuracyResultCoreSchema,
  performanceResultCoreSchema,
} from "../../../src-shared/contracts/results.js";
import {
  createCatalogServices,
  type CatalogServices,
} from "../../../src-main/catalog/createCatalogServices.js";
import type { LoadedModelInfo } from "../../../src-main/engine/EnginePool.js";
import { registerCatalogAdminRoutes } from "../../../src-main/server/admin/registerCatalogAdminRoutes.js";
import { createServer } from "../../../src-main/server/createServer.js";

/** An engine pool stand-in: tests set `loaded` and read what was unloaded or pinned. */
export class FakeEngine {
  loaded: LoadedModelInfo[] = [];
  unloaded: string[] = [];
  pinned: [string, boolean][] = [];
  list(): LoadedModelInfo[] {
    return this.loaded;
  }
  async load(modelId: string): Promise<void> {
    if (!this.loaded.some((info) => info.id === modelId)) this.loaded.push(loadedInfo(modelId));
  }
  async unload(modelId: string): Promise<boolean> {
    const had = this.loaded.some((info) => info.id === modelId);
    this.loaded = this.loaded.filter((info) => info.id !== modelId);
    if (had) this.unloaded.push(modelId);
    return had;
  }
  applySettings(modelId: string, settings: ModelSettings): void {
    this.pinned.push([modelId, settings.pinned ?? false]);
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

/** The admin routes of this issue on a real server (security hooks included), over `basePath`. */
export async function buildAdminApp(
  basePath: string,
  options: { env?: NodeJS.ProcessEnv; apiKey?: string } = {},
): Promise<{ app: FastifyInstance; services: CatalogServices; engine: FakeEngine }> {
  const engine = new FakeEngine();
  const services = createCatalogServices({
    basePath,
    engine,
    env: options.env ?? {},
    accuracySchema: accuracyResultCoreSchema,
    performanceSchema: performanceResultCoreSchema,
  }) as unknown as CatalogServices;
  const app = await createServer({
    allowRemoteAdmin: false,
    apiKey: options.apiKey,
    register: (server) => registerCatalogAdminRoutes(server, services),
  });
  return { app, services, engine };
}
