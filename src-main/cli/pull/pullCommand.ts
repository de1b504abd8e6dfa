import { Command } from "commander";
import type { DownloadEvent } from "../../../src-shared/contracts/catalog.js";
import { errorCodeSchema } from "../../../src-shared/contracts/errors.js";
import { PerchError } from "../../base/PerchError.js";
import { findServer } from "../client/findServer.js";
import { addGlobalOptions, type GlobalOptionValues } from "../globalOptions.js";
import { openCore } from "../openCore.js";
import { setRootLogLevel } from "../../base/createLogger.js";
import { reportError } from "../reportError.js";
import { parsePullReference } from "./parsePullReference.js";
import { pickDownload } from "../../catalog/downloads/pickDownload.js";
import { discardedNote } from "../../catalog/downloads/downloadFileResumable.js";
import { runningDownloadOf } from "../../catalog/downloads/runningDownloadOf.js";
import { corePullTarget, serverPullTarget, type PullTarget } from "./PullTarget.js";
import { showDownloadProgress } from "./showDownloadProgress.js";

/**
 * `perch pull <owner/repo[:QUANT|/file.gguf]>` (`ms:` for ModelScope): downloads through the same
 * download manager as the dashboard — in the running server, else in this process — with a
 * progress bar, sha256 check, and resume of what an interrupted pull left (Ctrl-C keeps it).
 */
export function createPullCommand(): Command {
  return addGlobalOptions(new Command("pull"))
    .description("download a GGUF model from Hugging Face (or ModelScope with ms:owner/repo)")
    .argument("<model>", "owner/repo, owner/repo:QUANT, owner/repo/file.gguf, ms:owner/repo")
    .action(async (reference: string, options: GlobalOptionValues) => {
      try {
        const server = await findServer(options);
        if (server) {
          await pull(serverPullTarget(server), reference, serverHubHint);
        } else {
          const core = await openCore(options);
          // The pull's failure is this command's message: the download manager's warning about
          // it would say it twice, the first time as a raw log line.
          setRootLogLevel("error");
          try {
            await pull(corePullTarget(core), reference, hubHint);
          } finally {
            await core.close();
          }
        }
      } catch (error) {
        process.exitCode = reportError("pull", error);
      }
    });
}

async function pull(target: PullTarget, reference: string, hint: string): Promise<void> {
  const parsed = parsePullReference(reference);
  const { runId, following } = await withHubHint(hint, async () => {
    const request =
      parsed.file || parsed.quant
        ? pickDownload(parsed, {
            source: parsed.source,
            repo: parsed.repo,
            revision: "",
            files: [],
            ggufs: [],
          })
        : pickDownload(parsed, await target.repoFiles(parsed.source, parsed.repo, parsed.revision));
    try {
      return { runId: (await target.start(request)).run_id, following: false };
    } catch (error) {
      // The server is downloading this model already (the dashboard, /api/pull): follow that run.
      const running = runningDownloadOf(error);
      if (!running) throw error;
      process.stderr.write(`Already downloading (run ${running}); following that download.\n`);
      return { runId: running, following: true };
    }
  });
  const progress = showDownloadProgress(process.stderr);
  let last: DownloadEvent | undefined;
  // Ctrl-C cancels this command's own download (kept for a resume); one it follows was started
  // by someone else and goes on: only the following stops.
  const stopFollowing = new AbortController();
  const onSigint = () => {
    if (following) stopFollowing.abort();
    else void target.cancel(runId).catch(() => undefined);
  };
  process.once("SIGINT", onSigint);
  try {
    await target.follow(
      runId,
      (event) => {
        last = event;
        progress.onEvent(event);
      },
      stopFollowing.signal,
    );
  } finally {
    process.removeListener("SIGINT", onSigint);
    progress.stop();
  }
  if (stopFollowing.signal.aborted) {
    throw new PerchError("cancelled", `Stopped following download ${runId}; it goes on in the server.`);
  }
  if (last?.type === "completed") {
    process.stdout.write(`Pulled ${last.model_id}. Try it: perch run ${last.model_id}\n`);
    return;
  }
  if (last?.type === "cancelled") {
    throw new PerchError("cancelled", "Pull cancelled; run the same command again to resume.");
  }
  if (last?.type === "failed") {
    const code = errorCodeSchema.catch("internal_error").parse(last.error.code);
    const { message } = last.error;
    // A hub that answered wrongly (bad bytes: discarded) or refused is not a reachability question.
    const discarded = message.includes(discardedNote);
    const answered = discarded || /refused access/.test(message);
    throw new PerchError(
      code,
      `${message}${code === "upstream_error" && !answered ? hint : ""}${resumable.has(code) && !discarded ? resumeAdvice : ""}`,
    );
  }
  throw new PerchError("internal_error", "The download stream ended before the download did.");
}

/**
 * Failures a second pull resumes from the kept `.part`, whose message does not say so itself: not
 * a full disk (its message says how to resume once space is free), not another process holding
 * the download (that message says to wait), not a refusal.
 */
const resumable = new Set<string>(["upstream_error", "internal_error"]);
const resumeAdvice = " Run the same command again to resume.";

const hubHint = " (Is the hub reachable? A mirror can be set with HF_ENDPOINT or MODELSCOPE_ENDPOINT.)";
/** Through a server, the server's endpoints count: this shell's HF_ENDPOINT never reaches it. */
const serverHubHint =
  " (Is the hub reachable from the server? It downloads through its own endpoints: the HF_ENDPOINT or MODELSCOPE_ENDPOINT it was started with, or the hub endpoints in its settings, not this shell's.)";

/** Through a server, the server's token counts too: HF_TOKEN in this shell never reaches it. */
const serverTokenHint =
  " (The server downloads with its own token: the HF_TOKEN it was started with, or the Hugging Face token in its settings, not this shell's.)";

async function withHubHint<T>(hint: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PerchError)) throw error;
    const access = /HF_TOKEN/.test(error.message);
    if (access && hint === serverHubHint)
      throw new PerchError(error.code, `${error.message}${serverTokenHint}`);
    if (error.code === "upstream_error" && !access)
      throw new PerchError("upstream_error", `${error.message}${hint}`);
    throw error;
  }
}
