import cliProgress from "cli-progress";
import type { DownloadEvent } from "../../../src-shared/contracts/catalog.js";
import { formatBytes } from "../../../src-shared/text/formatBytes.js";

/**
 * Draws a download's events: a byte bar on a terminal, otherwise one line per 10% (logs and
 * tests read those). Resume and the sha256 check are always named.
 */
export function showDownloadProgress(stderr: NodeJS.WritableStream & { isTTY?: boolean }): {
  onEvent(event: DownloadEvent): void;
  stop(): void;
} {
  const interactive = Boolean(stderr.isTTY);
  const bar = new cliProgress.SingleBar(
    {
      format: "{bar} {percentage}% | {done}/{all} | {speed}/s | eta {eta_formatted}",
      stream: stderr,
      hideCursor: true,
      etaBuffer: 20,
    },
    cliProgress.Presets.shades_classic,
  );
  let barStarted = false;
  let lastTenth = -1;
  const stopBar = () => {
    if (barStarted) bar.stop();
    barStarted = false;
  };
  return {
    onEvent(event) {
      switch (event.type) {
        case "started": {
          stderr.write(
            `Pulling ${event.model_id} (${formatBytes(event.total_bytes)}) from ${event.repo}@${event.revision.slice(0, 12)}\n`,
          );
          if (event.resumed_from_bytes > 0) {
            stderr.write(`Resuming: ${formatBytes(event.resumed_from_bytes)} already on disk\n`);
          }
          if (interactive) {
            bar.start(event.total_bytes, event.resumed_from_bytes, {
              done: formatBytes(event.resumed_from_bytes),
              all: formatBytes(event.total_bytes),
              speed: "-",
            });
            barStarted = true;
          }
          break;
        }
        case "progress": {
          if (barStarted) {
            bar.update(event.downloaded_bytes, {
              done: formatBytes(event.downloaded_bytes),
              speed: formatBytes(event.bytes_per_second),
            });
            break;
          }
          const tenth = Math.floor((event.downloaded_bytes / Math.max(1, event.total_bytes)) * 10);
          if (tenth > lastTenth) {
            lastTenth = tenth;
            stderr.write(
              `progress ${tenth * 10}% (${formatBytes(event.downloaded_bytes)} of ${formatBytes(event.total_bytes)})\n`,
            );
          }
          break;
        }
        case "verifying":
          if (!barStarted) stderr.write(`verifying sha256 of ${event.file}\n`);
          break;
        case "file_completed":
          stopBar();
          stderr.write(`${event.file}: sha256 ${event.sha256} ok\n`);
          break;
        default:
          stopBar();
      }
    },
    stop: stopBar,
  };
}
