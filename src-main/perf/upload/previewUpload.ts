import { readGgufFileInfo } from "node-llama-cpp";
import type { PerformanceResult, UploadPreviewResponse } from "../../../src-shared/contracts/performance.js";
import type { ResolvedModel } from "../../engine/LoadedModel.js";
import { baseModelName, describeGgufModel, ggufKeysNotNeeded } from "../describeGgufModel.js";
import { resolveContextSize } from "../resolveContextSize.js";
import type { PayloadBuilder } from "./createPayloadBuilder.js";
import { decideUploadSkip } from "./decideUploadSkip.js";
import { findExperimentalFeatures } from "./findExperimentalFeatures.js";

export interface PreviewUploadOptions {
  buildPayload: PayloadBuilder;
  resolveModel: (modelId: string) => Promise<ResolvedModel>;
  getEndpoint: () => Promise<string | null>;
  appVersion: string;
  /** Experimental features outside the model's settings. Defaults to none. */
  extraExperimentalFeatures?: (modelId: string) => string[];
}

/**
 * What an upload would send, built by the same code as the upload itself. For a stored result
 * the payload is final; for a model without one, `results` are empty lists (a run fills them)
 * and the model facts come from the GGUF header and the model's current settings.
 */
export async function previewUpload(
  target: { result: PerformanceResult } | { modelId: string },
  options: PreviewUploadOptions,
): Promise<UploadPreviewResponse> {
  const endpoint = await options.getEndpoint();
  if ("result" in target) {
    const { result } = target;
    const skip = decideUploadSkip({
      targetKind: result.target.kind,
      experimentalFeatures: result.environment.experimental_features,
      otherRequests: result.environment.other_requests,
      endpoint,
    });
    // Nothing about an external run is ever sent (no local model file, unknown hardware).
    if (result.target.kind === "external")
      return { payload: null, from_result_id: result.result_id, skip, endpoint };
    return { payload: await options.buildPayload(result), from_result_id: result.result_id, skip, endpoint };
  }
  const resolved = await options.resolveModel(target.modelId);
  const skip = decideUploadSkip({
    targetKind: "local",
    experimentalFeatures: findExperimentalFeatures(
      resolved.settings,
      options.extraExperimentalFeatures?.(target.modelId) ?? [],
    ),
    endpoint,
  });
  return {
    payload: await previewFromModel(target.modelId, options, "preview"),
    from_result_id: null,
    skip,
    endpoint,
  };
}

async function previewFromModel(modelId: string, options: PreviewUploadOptions, submissionId: string) {
  const resolved = await options.resolveModel(modelId);
  const info = await readGgufFileInfo(resolved.path, { ignoreKeys: ggufKeysNotNeeded, logWarnings: false });
  const facts = describeGgufModel(info, baseModelName(modelId));
  return options.buildPayload({
    result_id: submissionId,
    model_id: modelId,
    model: {
      name: facts.name,
      quantization: facts.quantization,
      parameter_count: facts.parameterCount,
      file_size_bytes: null,
      context_size: resolveContextSize(resolved.settings, facts.trainContextSize),
    },
    single: [],
    batch: [],
    peak_rss_bytes: 0,
    environment: { app_version: options.appVersion },
  });
}
