import {
  performanceResultSchema,
  type PerformanceResult,
} from "../../../src-shared/contracts/performance.js";
import { accuracyResultSchema, type AccuracyResult } from "../../../src-shared/contracts/accuracy.js";
import { modelRowSchema, type ModelRow } from "../../../src-shared/contracts/models.js";

const at = "2026-03-01T10:00:00.000Z";

/** A model row as `GET /admin/api/models` answers it (parsed, so fixtures follow the contract). */
export function modelRow(overrides: Partial<ModelRow> = {}): ModelRow {
  return modelRowSchema.parse({
    id: "perch-test/perch-test-model-Q8_0",
    path: "/base/models/perch-test/perch-test-model-Q8_0.gguf",
    files: ["/base/models/perch-test/perch-test-model-Q8_0.gguf"],
    models_dir: "/base/models",
    missing: false,
    source: "local",
    repo: null,
    remote_path: null,
    revision: null,
    file_oid: null,
    discovered_at: at,
    downloaded_at: null,
    updated_at: null,
    last_checked_at: null,
    remote_revision: null,
    update_status: "not_applicable",
    update_error: null,
    size_bytes: 4_370_000_000,
    mtime_ms: 0,
    gguf: {
      architecture: "llama",
      parameter_count: 7_600_000_000,
      quantization: "Q8_0",
      context_length: 4096,
      expert_count: 0,
      name: "Perch Test",
    },
    gguf_error: null,
    settings: {},
    tags: [],
    suggested_tags: ["Dense"],
    accuracy: { latest: null, best: null, best_by_benchmark: {} },
    performance: null,
    load: {
      state: "unloaded",
      pinned: false,
      active_users: 0,
      ttl_seconds: null,
      loaded_at: null,
      last_used_at: null,
    },
    ...overrides,
  });
}

export function accuracyResult(overrides: Partial<AccuracyResult> = {}): AccuracyResult {
  return accuracyResultSchema.parse({
    result_id: "acc-1",
    created_at: at,
    model_id: "perch-test/perch-test-model-Q8_0",
    benchmark: "humaneval",
    accuracy: 0.5,
    total: 2,
    variant: "base",
    batch_size: 4,
    sampling_profile: "deterministic",
    effective_sampling: { temperature: 0 },
    thinking: false,
    status: "completed",
    questions: [
      {
        id: "HumanEval/0",
        correct: true,
        expected: "tests pass",
        extracted: "def f(): return 1",
        response: "```python\ndef f(): return 1\n```",
        pass_mode: "extracted_block",
        failure_type: null,
        error: null,
        time_s: 1.25,
        category: "code",
      },
      {
        id: "HumanEval/1",
        correct: false,
        expected: "tests pass",
        extracted: null,
        response: 'I think, "maybe"\nno code',
        pass_mode: null,
        failure_type: "no_code",
        error: "no code block, found prose",
        time_s: 2,
        category: "code",
      },
    ],
    timings: { total_s: 3, generation_s: 3.25, scoring_s: 0.1 },
    ...overrides,
  });
}

export function performanceResult(overrides: Partial<PerformanceResult> = {}): PerformanceResult {
  const single = (prompt: number, pp: number, tg: number) => ({
    prompt_tokens: prompt,
    generated_tokens: 128,
    pp_tps: pp,
    tg_tps: tg,
    ttft_ms: (prompt / pp) * 1000,
    cached_prompt_tokens: 0,
    tpot_ms: 1000 / tg,
    e2e_ms: 2000,
    queue_wait_ms: 0,
    peak_rss_bytes: 1_000_000,
    peak_gpu_bytes: null,
  });
  return performanceResultSchema.parse({
    result_id: "perf-1",
    created_at: at,
    model_id: "perch-test/perch-test-model-Q8_0",
    run_id: "perfrun-1",
    target: { kind: "local", model_id: "perch-test/perch-test-model-Q8_0" },
    model: {
      name: "Perch Test",
      quantization: "Q8_0",
      parameter_count: 1000,
      file_size_bytes: 1000,
      context_size: 4096,
    },
    plan: { prompt_lengths: [128, 1024], batch_sizes: [4], generated_tokens: 128, batch_prompt_tokens: 512 },
    single: [single(1024, 812.4, 48.31), single(128, 600, 50)],
    batch: [
      {
        batch_size: 4,
        prompt_tokens: 512,
        generated_tokens: 512,
        aggregate_pp_tps: 900,
        aggregate_tg_tps: 120,
        mean_ttft_ms: 300,
        wall_ms: 5000,
        peak_rss_bytes: 2_000_000,
        peak_gpu_bytes: null,
      },
    ],
    skipped: [],
    peak_rss_bytes: 2_000_000,
    peak_gpu_bytes: null,
    duration_ms: 9000,
    environment: {
      app_version: "0.1.0",
      os: "linux",
      arch: "x64",
      cpu_model: "test",
      memory_bytes: 1,
      backend: "cpu",
      threads: 1,
      experimental_features: [],
    },
    upload_requested: false,
    upload: { state: "not_requested" },
    ...overrides,
  });
}
