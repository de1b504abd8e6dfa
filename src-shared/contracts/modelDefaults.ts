/*
 * What an unset model setting stands for, so the settings form can show the value behind
 * "Default". The server's own fallbacks: llama.cpp's sampling defaults (`common_params_sampling`,
 * used by `resolveSampling`), the scheduler's slot and queue sizes, and the context cap.
 */
export const samplingDefaults = {
  temperature: 0.8,
  top_k: 40,
  top_p: 0.95,
  min_p: 0.05,
  presence_penalty: 0,
  frequency_penalty: 0,
  repetition_penalty: 1,
} as const;

/** Parallel sequences, waiting requests, and the context cap when the setting is unset. */
export const runtimeDefaults = { max_concurrent_requests: 8, max_queue: 64, context_size_cap: 8192 } as const;

/** Prompt cache sizes (MiB) when a model sets none: evicted sequence states in memory and on disk. */
export const promptCacheDefaults = { ram_mib: 1024, disk_mib: 4096 } as const;
