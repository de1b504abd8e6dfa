import cliProgress from "cli-progress";
import type { EvalRunEvent } from "../../src-shared/contracts/evalQueue.js";
import type { Core } from "../core/createCore.js";
import { formatSeconds } from "./formatEvalSummary.js";

/** Draws a bar per benchmark on a terminal, a line per benchmark otherwise; resolves with `run_finished`. */
export function followEvalRun(
  queue: Pick<Core["evals"], "subscribe">,
  runId: string,
  stderr: NodeJS.WritableStream & { isTTY?: boolean },
  quiet: boolean,
): Promise<Extract<EvalRunEvent, { type: "run_finished" }>> {
  const interactive = Boolean(stderr.isTTY) && !quiet;
  const bar = new cliProgress.SingleBar(
    {
      format: "{benchmark} {bar} {value}/{total} | acc {accuracy} | eta {eta_text}",
      stream: stderr,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let barStarted = false;
  return new Promise((resolve) => {
    queue.subscribe(runId, (event) => {
      switch (event.type) {
        case "benchmark_started":
          if (interactive) {
            bar.start(event.total, 0, { benchmark: event.benchmark, accuracy: "-", eta_text: "-" });
            barStarted = true;
          } else if (!quiet) stderr.write(`${event.benchmark}: ${event.total} questions\n`);
          break;
        case "thinking_detected":
          if (!interactive && !quiet) stderr.write(`${event.benchmark}: model reasons; thinking on\n`);
          break;
        case "question_done":
          if (barStarted) {
            bar.update(event.completed, {
              accuracy: `${(event.running_accuracy * 100).toFixed(1)}%`,
              eta_text: event.eta_s === null ? "-" : formatSeconds(event.eta_s),
            });
          }
          break;
        case "benchmark_finished":
          if (barStarted) bar.stop();
          barStarted = false;
          break;
        case "run_finished":
          resolve(event);
          break;
        default:
          break;
      }
    });
  });
}
