import type { UploadPreviewResponse } from "../../src-shared/contracts/performance.js";
import type { GlobalSettings } from "../../src-shared/contracts/settings.js";
import type { ResolvedModel } from "../engine/LoadedModel.js";
import { createExternalTarget } from "./createExternalTarget.js";
import { createLocalTarget, type LocalTargetDeps } from "./createLocalTarget.js";
import { PerfRunner, type PerfResultStore } from "./PerfRunner.js";
import { perchVersion } from "../base/version.js";
import { perchPaths } from "../base/perchPaths.js";
import { CommunityUploader } from "./upload/CommunityUploader.js";
import { createPayloadBuilder, type PayloadBuilder } from "./upload/createPayloadBuilder.js";
import { describeSystem, type SystemFacts } from "./upload/describeSystem.js";
import { FileHashCache } from "./upload/FileHashCache.js";
import { previewUpload } from "./upload/previewUpload.js";
import { createLogger } from "../base/createLogger.js";
import { errorMessage } from "../base/describeError.js";

const log = createLogger("perf");

export interface PerfServiceOptions extends LocalTargetDeps {
  /** Base folder (owner salt, file hash cache). */
  basePath: string;
  /** Maps a model id to its file and settings (the catalog's resolver). */
  resolveModel: (modelId: string) => Promise<ResolvedModel>;
  /** The id behind a client's name for a model (`ModelCatalog.canonicalId`). Defaults to the name as given. */
  canonicalId?: (name: string) => Promise<string>;
  /** Performance results (`<base>/benchmarks/performance/results`). */
  store: PerfResultStore;
  /** Global settings; read at each upload and preview. */
  getSettings: () => Promise<Pick<GlobalSettings, "community_upload_url">>;
  /** Defaults to the version in Perch's `package.json`. */
  appVersion?: string;
  /** Replaces the global `fetch` for uploads and external targets (tests). Defaults to `fetch`. */
  fetch?: typeof fetch;
  /** Hardware and OS facts. Defaults to `describeSystem`. */
  system?: () => Promise<SystemFacts>;
  /** Milliseconds between memory samples. Defaults to `50`. */
  sampleIntervalMs?: number;
  /** Milliseconds before an upload counts as failed. Defaults to `30000`. */
  uploadTimeoutMs?: number;
}

/** Everything the perf routes, the CLI and (later) IPC use. */
export interface PerfService {
  runner: PerfRunner;
  uploader: CommunityUploader;
  buildPayload: PayloadBuilder;
  /** `GET /admin/api/bench/upload/preview`. */
  preview(query: { model_id?: string; result_id?: string }): Promise<UploadPreviewResponse>;
}

/** Wires the runner, its targets, the uploader and the preview over one set of dependencies. */
export function createPerfService(options: PerfServiceOptions): PerfService {
  const appVersion = options.appVersion ?? perchVersion();
  const system = options.system ?? describeSystem;
  const getEndpoint = async () => (await options.getSettings()).community_upload_url;
  const buildPayload = createPayloadBuilder({
    basePath: options.basePath,
    resolveModel: options.resolveModel,
    hashes: new FileHashCache(perchPaths(options.basePath).performanceFileHashes),
    system,
  });
  const uploader = new CommunityUploader({
    store: options.store,
    getEndpoint,
    buildPayload,
    fetch: options.fetch,
    timeoutMs: options.uploadTimeoutMs,
  });
  // A result a crash left `uploading` becomes `failed` (interrupted), so it can be retried.
  void uploader
    .failInterrupted()
    .catch((error: unknown) => log.warn({ err: errorMessage(error) }, "could not check interrupted uploads"));
  const runner = new PerfRunner({
    createTarget: (request) =>
      request.external
        ? Promise.resolve(createExternalTarget(request.external, { fetch: options.fetch }))
        : createLocalTarget(request.model_id as string, options),
    validate: async (request) => {
      if (request.model_id !== undefined) await options.resolveModel(request.model_id);
    },
    ...(options.canonicalId ? { canonicalId: options.canonicalId } : {}),
    store: options.store,
    uploader,
    appVersion,
    system,
    sampleIntervalMs: options.sampleIntervalMs,
  });
  return {
    runner,
    uploader,
    buildPayload,
    async preview(query) {
      const previewOptions = {
        buildPayload,
        resolveModel: options.resolveModel,
        getEndpoint,
        appVersion,
        extraExperimentalFeatures: options.extraExperimentalFeatures,
      };
      if (query.result_id !== undefined) {
        return previewUpload({ result: await options.store.get(query.result_id) }, previewOptions);
      }
      // Before a run: the model's identity and current settings decide what is sent and whether
      // it would be skipped; the numbers are the run's own.
      const modelId = query.model_id as string;
      return previewUpload({ modelId: (await options.canonicalId?.(modelId)) ?? modelId }, previewOptions);
    },
  };
}
