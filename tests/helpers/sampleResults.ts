import { performanceResultSchema, type PerformanceResult } from "../../src-shared/contracts/performance.js";
import { accuracyResultSchema, type AccuracyResult } from "../../src-shared/contracts/accuracy.js";

/**
 * Valid stored results (parsed with the real schemas), sized like real ones: an accuracy result
 * carries `questions` per-question diagnostics, so a torn write would cut it mid-list.
 */
export function sampleAccuracyResult(resultId: string, modelId: string, questions = 40): AccuracyResult {
  return accuracyResultSchema.parse({
    result_id: resultId,
    created_at: new Date().toISOString(),
    model_id: modelId,
    benchmark: "humaneval",
    accuracy: 0.5,
    total: questions,
    variant: "base",
    batch_size: 4,
    sampling_profile: "deterministic",
    effective_sampling: { temperature: 0 },
    thinking: false,
    status: "completed",
    questions: Array.from({ length: questions }, (_, index) => ({
      id: `HumanEval/${index}`,
      correct: index % 2 === 0,
      expected: "tests pass",
      extracted: index % 2 === 0 ? "def f():\n    return 1\n" : null,
      response: `\`\`\`python\ndef f():\n    return ${index}\n\`\`\`\n${"explanation ".repeat(20)}`,
      pass_mode: index % 2 === 0 ? "extracted_block" : null,
      failure_type: index % 2 === 0 ? null : "no_code",
      error: index % 2 === 0 ? null : "no code block",
      time_s: 1.25,
      category: "code",
    })),
    timings: { total_s: 3, generation_s: 3.25, scoring_s: 0.1 },
  });
}

export function samplePerformanceResult(
  resultId: string,
  modelId: string,
  upload: PerformanceResult["upload"] = { state: "not_requested" },
): PerformanceResult {
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
    result_id: resultId,
    created_at: new Date().toISOString(),
    model_id: modelId,
    run_id: `run-${resultId}`,
    target: { kind: "local", model_id: modelId },
    model: {
      name: "tiny",
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
    upload_requested: upload.state !== "not_requested",
    upload,
  });
}
