import { describe, expect, it } from "vitest";
import { formatLogLine } from "../../../src-main/cli/logs/formatLogLine.js";
import { formatPs } from "../../../src-main/cli/psCommand.js";
import { formatCount, formatTable } from "../../../src-main/cli/formatTable.js";
import { formatBytes } from "../../../src-shared/text/formatBytes.js";
import type { ServerStats } from "../../../src-shared/contracts/stats.js";

describe("CLI formatting", () => {
  it("aligns table columns to the widest cell", () => {
    expect(
      formatTable(
        ["A", "BB"],
        [
          ["long", "x"],
          ["s", "yy"],
        ],
      ),
    ).toBe("A     BB\nlong  x\ns     yy\n");
  });

  it("aligns columns by terminal width: CJK and emoji take two columns, marks none", () => {
    const table = formatTable(
      ["NAME", "SIZE"],
      [
        ["通义千问", "1 GB"],
        ["🦙-llama", "2 GB"],
        ["👨‍👩‍👧 family", "3 GB"],
        ["cafe\u0301", "4 GB"],
        ["plain", "5 GB"],
      ],
    );
    expect(table).toBe(
      [
        "NAME       SIZE",
        "通义千问   1 GB",
        "🦙-llama   2 GB",
        "👨‍👩‍👧 family  3 GB",
        "cafe\u0301       4 GB",
        "plain      5 GB",
        "",
      ].join("\n"),
    );
  });

  it("writes sizes and counts the short way", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.54 KB");
    expect(formatBytes(4_370_000_000)).toBe("4.37 GB");
    expect(formatBytes(999_960)).toBe("1.00 MB");
    expect(formatBytes(350_000_000)).toBe("350 MB");
    expect(formatCount(7_241_000_000)).toBe("7.2B");
    expect(formatCount(350_000_000)).toBe("350M");
  });

  it("ps shows TTL left from the last use, and pinned, busy and never-unloading models", () => {
    const base = {
      state: "loaded" as const,
      ttlSuspended: false,
      estimatedBytes: 64_000_000,
      lastUsedAt: 0,
    };
    const stats = {
      models: [],
      totals: {
        activeSequences: 0,
        queueDepth: 0,
        generatedTokensLastMinute: 0,
        tokensPerSecond: 0,
        promptCache: { lookups: 0, hits: 0, hitRate: 0, reusedTokens: 0, ramBytes: 0, diskBytes: 0 },
      },
      loadedModels: [
        { ...base, id: "idle", activeUsers: 0, pinned: false, ttlSeconds: 600 },
        { ...base, id: "pinned", activeUsers: 0, pinned: true, ttlSeconds: 600 },
        { ...base, id: "busy", activeUsers: 2, pinned: false, ttlSeconds: 600 },
        { ...base, id: "forever", activeUsers: 0, pinned: false, ttlSeconds: 0 },
      ],
      at: new Date(90_000).toISOString(),
    } satisfies ServerStats;
    const lines = formatPs(stats, 90_000).trim().split("\n");
    // No scheduling lane (never asked to generate): no requests of its own to count.
    expect(lines[1]).toMatch(/^idle\s+loaded\s+64.0 MB\s+-\s+8m30s\s+-\s+0\s+-$/);
    expect(lines[2]).toMatch(/^pinned .* pinned /);
    // Held by another model (a draft its target uses), with no requests of its own: not "2 active".
    expect(lines[3]).toMatch(/^busy .* in use\s+-\s/);
    expect(lines[4]).toMatch(/^forever .* never /);
    expect(formatPs({ ...stats, loadedModels: [] }, 0)).toBe("No model is loaded.\n");
  });

  it("renders pino lines readably and leaves other text alone", () => {
    const line = JSON.stringify({
      level: 40,
      time: 0,
      pid: 1,
      hostname: "h",
      module: "engine",
      msg: "slow",
      ms: 5,
    });
    expect(formatLogLine(line)).toBe('1970-01-01T00:00:00.000Z WARN  engine: slow {"ms":5}');
    expect(formatLogLine("plain text")).toBe("plain text");
  });
});
