import type { FastifyInstance } from "fastify";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import type { Core } from "../core/createCore.js";
import { registerCatalogAdminRoutes } from "./admin/registerCatalogAdminRoutes.js";
import { registerChatRoutes } from "./admin/registerChatRoutes.js";
import { registerEvalRoutes } from "./admin/registerEvalRoutes.js";
import { registerPerfRoutes } from "./admin/registerPerfRoutes.js";
import { registerStatsRoutes } from "./admin/registerStatsRoutes.js";
import { registerAnthropicRoutes } from "./anthropic/registerAnthropicRoutes.js";
import { registerOpenAiRoutes } from "./openai/registerOpenAiRoutes.js";
import { registerEmbeddingRoutes } from "./openai/registerEmbeddingRoutes.js";
import { registerModelRoute } from "./openai/registerModelRoute.js";
import { registerResponsesRoutes } from "./openai/responses/registerResponsesRoutes.js";
import { registerOllamaRoutes } from "./ollama/registerOllamaRoutes.js";
import { buildOpenApiDocument } from "./openapi/buildOpenApiDocument.js";
import { perchVersion } from "../base/version.js";
import { adminRouteDocs } from "./openapi/adminRouteDocs.js";
import { inferenceRouteDocs } from "./openapi/inferenceRouteDocs.js";
import { ollamaRouteDocs } from "./openapi/ollamaRouteDocs.js";

/** Every domain's routes, wired to the core's services. */
export async function registerRoutes(app: FastifyInstance, core: Core): Promise<void> {
  const generate = core.scheduler.generate.bind(core.scheduler);
  // An explicit load (admin API, Ollama's empty prompt) builds the generation context too.
  const engine = {
    list: () => core.engine.list(),
    unload: (modelId: string) => core.engine.unload(modelId),
    keepAlive: (modelId: string, seconds: number | null) => core.engine.keepAlive(modelId, seconds),
    applySettings: (modelId: string, settings: ModelSettings) => core.engine.applySettings(modelId, settings),
    settingsInEffect: (modelId: string) => core.engine.settingsInEffect(modelId),
    load: (modelId: string) => core.scheduler.prepare(modelId),
  };
  const listModels = async () => (await core.models.list()).map(({ id, created }) => ({ id, created }));
  await registerOpenAiRoutes(app, { generate, listModels });
  registerResponsesRoutes(app, { generate });
  registerModelRoute(app, { listModels, canonicalId: (name) => core.catalog.canonicalId(name) });
  registerEmbeddingRoutes(app, { embed: (request) => core.scheduler.embed(request) });
  await registerAnthropicRoutes(app, {
    generate,
    countPromptTokens: (request) => core.scheduler.countPromptTokens(request),
  });
  await registerOllamaRoutes(app, {
    generate,
    countPromptTokens: (request) => core.scheduler.countPromptTokens(request),
    embed: (request) => core.scheduler.embed(request),
    listModels: () => core.catalog.list(),
    refreshModels: () => core.catalog.refresh(),
    modelSettings: (modelId) => core.modelSettings.get(modelId),
    canonicalId: (name) => core.catalog.canonicalId(name),
    deleteModel: (modelId) => core.catalog.deleteModel(modelId),
    engine,
    contextSizeOf: (modelId) =>
      core.scheduler.stats().models.find((model) => model.modelId === modelId)?.contextSize,
    downloads: core.downloads,
  });
  await registerCatalogAdminRoutes(app, { ...core, engine });
  await registerPerfRoutes(app, { perf: core.perf });
  await registerEvalRoutes(app, { queue: core.evals });
  await registerChatRoutes(app, core.chat);
  registerStatsRoutes(app, core.scheduler, core.engine);
  const openApi = buildOpenApiDocument([...inferenceRouteDocs, ...ollamaRouteDocs, ...adminRouteDocs()], {
    version: perchVersion(),
  });
  app.get("/openapi.json", async () => openApi);
}
