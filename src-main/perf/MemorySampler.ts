import type { PeakMemory } from "./computeSingleTest.js";

export interface MemorySamplerOptions {
  /** Milliseconds between samples. Defaults to `50`. */
  intervalMs?: number;
  /** Bytes of GPU memory the engine uses now (node-llama-cpp's own figure); null when unknown. */
  gpuBytes?: () => Promise<number | null>;
  /** Resident set size of this process. Defaults to `process.memoryUsage.rss`. */
  rssBytes?: () => number;
}

/**
 * Records the peak resident memory of the process (the model's weights, KV cache and buffers
 * all live in it on a CPU or unified-memory machine) and the GPU memory node-llama-cpp reports,
 * sampled on a timer while a test runs. The timer is unref'd and cheap (one /proc read).
 */
export class MemorySampler {
  private peakRss = 0;
  private peakGpu: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private pendingGpu: Promise<void> | undefined;
  private readonly options: Required<Omit<MemorySamplerOptions, "gpuBytes">> &
    Pick<MemorySamplerOptions, "gpuBytes">;

  constructor(options: MemorySamplerOptions = {}) {
    this.options = { intervalMs: 50, rssBytes: () => process.memoryUsage.rss(), ...options };
  }

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.options.intervalMs);
    this.timer.unref();
    return this;
  }

  /** Stops sampling and returns the peaks (including one last sample). */
  async stop(): Promise<PeakMemory> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.sample();
    await this.pendingGpu;
    return this.peak();
  }

  peak(): PeakMemory {
    return { rssBytes: this.peakRss, gpuBytes: this.peakGpu };
  }

  private sample(): void {
    this.peakRss = Math.max(this.peakRss, this.options.rssBytes());
    const gpuBytes = this.options.gpuBytes;
    if (!gpuBytes || this.pendingGpu) return;
    this.pendingGpu = gpuBytes()
      .then((bytes) => {
        if (bytes !== null && Number.isFinite(bytes)) this.peakGpu = Math.max(this.peakGpu ?? 0, bytes);
      })
      .catch(() => undefined)
      .finally(() => {
        this.pendingGpu = undefined;
      });
  }
}

/** The larger of two peaks (a run's peak over its tests). */
export function maxPeak(a: PeakMemory, b: PeakMemory): PeakMemory {
  return {
    rssBytes: Math.max(a.rssBytes, b.rssBytes),
    gpuBytes: a.gpuBytes === null && b.gpuBytes === null ? null : Math.max(a.gpuBytes ?? 0, b.gpuBytes ?? 0),
  };
}
