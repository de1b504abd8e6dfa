import { describe, expect, it } from "vitest";
import config from "../../../electron.config.js";
import threadPool from "../../../scripts/uvThreadPoolSize.cjs";

// The packaged app cannot be built for macOS here; what electron-builder merges into its
// Info.plist is checked where it is declared. LSEnvironment reaches the main process, which
// decodes, before Node starts libuv's pool (README: "Notes on CPUs").
describe("the Mac app's Info.plist entries", () => {
  it("run as a menu-bar app with libuv's pool at Perch's size", () => {
    const info = config.mac?.extendInfo as Record<string, unknown> | undefined;
    expect(info?.LSUIElement).toBe(true);
    expect(info?.LSEnvironment).toEqual({ UV_THREADPOOL_SIZE: threadPool.uvThreadPoolSize });
    expect(Number(threadPool.uvThreadPoolSize)).toBeGreaterThanOrEqual(1);
  });
});
