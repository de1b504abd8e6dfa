import type { CatalogEntry } from "../../../src-shared/contracts/catalog.js";
import type { ModelSettings } from "../../../src-shared/contracts/settings.js";
import type { DownloadManager } from "../../catalog/downloads/DownloadManager.js";
import type { EnginePool } from "../../engine/EnginePool.js";
import type { GenerationRequest, GenerationResult } from "../../scheduler/GenerationRequest.js";
import type { EmbeddingRequest, EmbeddingResult } from "../../scheduler/Scheduler.js";

/** What the Ollama routes need from the core (tests may pass fakes). */
export interface OllamaRouteDeps {
  generate: (request: GenerationRequest) => Promise<GenerationResult>;
  /** The prompt tokens of a request (`/api/chat` fits a long conversation to the context with it). */
  countPromptTokens: (request: GenerationRequest) => Promise<number>;
  embed: (request: EmbeddingRequest) => Promise<EmbeddingResult>;
  /** The catalog's entries (missing ones are skipped). */
  listModels: () => Promise<CatalogEntry[]>;
  /**
   * Brings `listModels` up to date with the models folders (a file copied in or removed), cheaply
   * when nothing changed: `/api/tags` calls it, and a name not found before a 404. Defaults to none.
   */
  refreshModels?: () => Promise<unknown>;
  modelSettings: (modelId: string) => Promise<ModelSettings>;
  /** The model id a name means when it is a model's alias (else the name); see `ModelCatalog`. */
  canonicalId?: (name: string) => Promise<string>;
  deleteModel: (modelId: string) => Promise<unknown>;
  engine: Pick<EnginePool, "list" | "load" | "unload" | "keepAlive">;
  /** Context size of a loaded model's generation context, when it has one. */
  contextSizeOf: (modelId: string) => number | undefined;
  downloads: Pick<DownloadManager, "repoFiles" | "start" | "get" | "subscribe" | "cancel">;
}
