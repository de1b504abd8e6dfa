import type { SandboxRunResult } from "../scoring/SandboxRun.js";
import { testsStartedMarker } from "./testsStartedMarker.js";

/**
 * What a check printed, as a reader of the result wants it: stdout then stderr (the traceback),
 * each labelled when both are there, without Perch's own marker line. Not bounded: callers cut it
 * to the field they fill.
 */
export function checkOutput(result: Pick<SandboxRunResult, "stdout" | "stderr">): string {
  const stdout = result.stdout
    .split("\n")
    .filter((line) => line.trim() !== testsStartedMarker)
    .join("\n")
    .trim();
  const stderr = result.stderr.trim();
  if (stdout && stderr) return `stdout:\n${stdout}\n\nstderr:\n${stderr}`;
  return stdout || stderr;
}
