import { describe, expect, it } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { describeError, errorMessage, toPerchError } from "../../../src-main/base/describeError.js";
import { perchPaths } from "../../../src-main/base/perchPaths.js";
import { perchVersion } from "../../../src-main/base/version.js";
import { readFileSync } from "node:fs";
import { repoRoot } from "../../helpers/fixtureDatasets.js";
import path from "node:path";

describe("describeError", () => {
  it("keeps a PerchError's code and gives anything else the fallback, never a model's code", () => {
    expect(describeError(new PerchError("queue_full", "busy"))).toEqual({
      code: "queue_full",
      message: "busy",
    });
    expect(describeError(new Error("disk gone"))).toEqual({ code: "internal_error", message: "disk gone" });
    expect(describeError("plain", "storage_error")).toEqual({ code: "storage_error", message: "plain" });
  });

  it("cuts long messages only when asked, and marks the cut", () => {
    const long = "x".repeat(600);
    expect(errorMessage(new Error(long))).toHaveLength(600);
    expect(errorMessage(new Error(long), 500)).toBe(`${"x".repeat(500)}…`);
    expect(errorMessage(42)).toBe("42");
  });

  it("says why a fetch failed (Node's own message is only 'fetch failed')", async () => {
    // A port that was free a moment ago: nothing listens there.
    const net = await import("node:net");
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const refused = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    expect(errorMessage(refused)).toBe(
      `fetch failed: connect ECONNREFUSED 127.0.0.1:${port} (nothing answers at that address)`,
    );
    const unresolved = await fetch("http://perch-no-such-host.invalid/").catch((error: unknown) => error);
    expect(errorMessage(unresolved)).toMatch(
      /^fetch failed: .*perch-no-such-host\.invalid.*does not resolve/,
    );
    // Other errors keep their message.
    expect(errorMessage(new TypeError("fetch failed"))).toBe("fetch failed");
  });

  it("wraps a foreign error once and passes a PerchError through", () => {
    const own = new PerchError("conflict", "busy");
    expect(toPerchError(own)).toBe(own);
    const wrapped = toPerchError(new TypeError("boom"), "upstream_error");
    expect(wrapped).toBeInstanceOf(PerchError);
    expect([wrapped.code, wrapped.message, wrapped.status]).toEqual(["upstream_error", "boom", 502]);
  });
});

describe("the base library's one spelling of paths and version", () => {
  it("puts every folder under the base path", () => {
    const paths = perchPaths("/b");
    expect(paths.accuracyResults).toBe(path.join("/b", "benchmarks", "accuracy", "results"));
    expect(paths.performanceResults).toBe(path.join("/b", "benchmarks", "performance", "results"));
    expect(Object.values(paths).every((folder) => folder.startsWith("/b"))).toBe(true);
  });

  it("reads the version from package.json", () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(perchVersion()).toBe(pkg.version);
  });
});
