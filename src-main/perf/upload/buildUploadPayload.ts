import {
  communityUploadPayloadSchema,
  type CommunityUploadPayload,
  type PerformanceResult,
} from "../../../src-shared/contracts/performance.js";
import type { SystemFacts } from "./describeSystem.js";

export interface UploadPayloadInput {
  /** The result's numbers and model facts (or a result-shaped preview before any run). */
  result: Pick<PerformanceResult, "result_id" | "model" | "single" | "batch" | "peak_rss_bytes"> & {
    environment: Pick<PerformanceResult["environment"], "app_version">;
  };
  system: SystemFacts;
  fileSha256: string;
  ownerHash: string;
}

/**
 * The community payload, field by field from an allow-list: nothing is spread from the result,
 * so a field added to results later cannot leak into uploads. Parsing with the strict schema
 * makes any extra key an error rather than a silent send.
 */
export function buildUploadPayload(input: UploadPayloadInput): CommunityUploadPayload {
  const { result, system } = input;
  return communityUploadPayloadSchema.parse({
    schema_version: 1,
    submission_id: result.result_id,
    owner_hash: input.ownerHash,
    app_version: result.environment.app_version,
    os: { platform: system.platform, version: system.osVersion, arch: system.arch },
    hardware: { chip: system.chip, memory_bytes: system.memoryBytes, gpu_cores: system.gpuCores },
    model: {
      name: result.model.name,
      quantization: result.model.quantization,
      parameter_count: result.model.parameter_count,
      file_sha256: input.fileSha256,
      context_size: result.model.context_size ?? 0,
    },
    results: {
      single: result.single.map((test) => ({
        prompt_tokens: test.prompt_tokens,
        generated_tokens: test.generated_tokens,
        pp_tps: test.pp_tps,
        tg_tps: test.tg_tps,
        ttft_ms: test.ttft_ms,
      })),
      batch: result.batch.map((test) => ({
        batch_size: test.batch_size,
        prompt_tokens: test.prompt_tokens,
        aggregate_pp_tps: test.aggregate_pp_tps,
        aggregate_tg_tps: test.aggregate_tg_tps,
        mean_ttft_ms: test.mean_ttft_ms,
      })),
      peak_memory_bytes: result.peak_rss_bytes,
    },
  });
}
