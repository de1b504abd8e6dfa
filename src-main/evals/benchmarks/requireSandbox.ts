import { PerchError } from "../../base/PerchError.js";
import type { CodeSandbox } from "../scoring/SandboxRun.js";
import type { ScoreContext } from "./Benchmark.js";

/** Code benchmarks cannot score without a sandbox: that is the caller's bug, not the model's. */
export function requireSandbox(context: ScoreContext, benchmark: string): CodeSandbox {
  if (!context.sandbox) throw new PerchError("internal_error", `${benchmark} scoring needs a code sandbox`);
  context.signal?.throwIfAborted();
  return context.sandbox;
}
