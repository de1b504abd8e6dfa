import { apiStreams } from "../../src-shared/contracts/api.js";
import { buildPath } from "../../src-shared/contracts/routeInput.js";
import type { AccuracyResult } from "../../src-shared/contracts/accuracy.js";
import { evalRunEventSchema, type EvalRunEvent } from "../../src-shared/contracts/evalQueue.js";
import type { AdminClient } from "./client/AdminClient.js";
import { followEvalRun } from "./followEvalRun.js";

/**
 * Follows a run queued on the running server over its SSE stream, with the same progress display
 * as a run in this process; then reads back the results it saved.
 */
export async function followServerEvalRun(
  server: AdminClient,
  runId: string,
  modelId: string,
  io: { stderr: NodeJS.WritableStream & { isTTY?: boolean }; json: boolean },
): Promise<{ finished: Extract<EvalRunEvent, { type: "run_finished" }>; results: AccuracyResult[] }> {
  const resultIds = new Set<string>();
  const stop = new AbortController();
  let streamFailure: unknown;
  const source = {
    subscribe(id: string, onEvent: (event: EvalRunEvent) => void) {
      server
        .stream(
          buildPath(apiStreams.accuracyRun.path, { run_id: id }),
          (data) => {
            const parsed = evalRunEventSchema.safeParse(data);
            if (!parsed.success) return;
            if (parsed.data.type === "benchmark_finished" && parsed.data.result_id) {
              resultIds.add(parsed.data.result_id);
            }
            onEvent(parsed.data);
          },
          stop.signal,
        )
        .catch((error: unknown) => {
          streamFailure = error;
          // Ends the wait; the failure itself is thrown below.
          onEvent({
            type: "run_finished",
            run_id: id,
            seq: 0,
            at: new Date().toISOString(),
            state: "failed",
            error: null,
          });
        });
      return () => stop.abort();
    },
  };
  const finished = await followEvalRun(source, runId, io.stderr, io.json);
  stop.abort();
  if (streamFailure) throw streamFailure;
  const { results } = await server.request("listAccuracyResults", { query: { model_id: modelId } });
  return { finished, results: results.filter((result) => resultIds.has(result.result_id)) };
}
