import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mainBuildState } from "../scripts/mainBuildState.js";
import type { BenchSection } from "./BenchSection.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runs = 5;
/** The target for `perch --version` and `perch --help`. */
const targetSeconds = 0.5;

/** Median wall time of `node bin/perch.js <args>` as a user runs it (a fresh process each time). */
function medianSeconds(args: string[], script = path.join(repoRoot, "bin/perch.js")): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    execFileSync(process.execPath, script ? [script, ...args] : args, { stdio: "ignore" });
    times.push((performance.now() - started) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * `perch --version` and `perch --help` on the compiled CLI (built first if stale, as `npm run
 * build` does), the way a user who installed Perch runs them.
 */
export const cliStartupSection: BenchSection = {
  name: "cli-startup",
  async run() {
    execFileSync(process.execPath, [path.join(repoRoot, "scripts/buildMain.js"), "--if-stale"], {
      stdio: "inherit",
    });
    const build = mainBuildState();
    const rows = [
      { command: "perch --version", median_s: medianSeconds(["--version"]) },
      { command: "perch --help", median_s: medianSeconds(["--help"]) },
    ].map((row) => ({ ...row, target_s: targetSeconds, met: row.median_s < targetSeconds ? "yes" : "no" }));
    // What starting Node alone costs on this machine now (a loaded machine inflates every row).
    rows.push({
      command: "node -e 0 (baseline)",
      median_s: medianSeconds(["-e", "0"], ""),
      target_s: 0,
      met: "-",
    });
    return {
      json: { build, runs, target_s: targetSeconds, commands: rows },
      table: [{ title: `CLI start-up (compiled build: ${build}, median of ${runs})`, rows }],
    };
  },
};
