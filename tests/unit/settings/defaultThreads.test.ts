import os from "node:os";
import { describe, expect, it } from "vitest";
import { defaultThreads, resolveConfig } from "../../../src-main/settings/PerchConfig.js";

// README "Notes on CPUs": with libuv's pool at 2, 2 threads decode 1.5–1.8x faster than 1 on a
// 2-core machine, so the default uses the CPUs (Apple Silicon: all but two, for the efficiency cores).
describe("the default llama.cpp thread count", () => {
  it("uses the CPUs the process may use, at most 8", () => {
    const cpus = os.availableParallelism();
    const appleSilicon = process.platform === "darwin" && process.arch === "arm64";
    expect(defaultThreads()).toBe(Math.max(1, Math.min(8, appleSilicon ? cpus - 2 : cpus)));
    expect(resolveConfig({}).threads).toBe(defaultThreads());
    expect(resolveConfig({ threads: 3 }).threads).toBe(3);
  });
});
