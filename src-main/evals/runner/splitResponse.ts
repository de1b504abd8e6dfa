import type { ModelResponse } from "../benchmarks/ModelResponse.js";
import { splitThinking } from "./splitThinking.js";

/** The one place a response's reasoning is split off before scoring (the runner, `perch eval score`). */
export function splitResponse(raw: string): ModelResponse {
  return { raw, ...splitThinking(raw) };
}
