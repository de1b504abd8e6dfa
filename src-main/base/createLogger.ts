// pino-roll ships no types; this brings its declaration into every program that logs.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pinoRoll.d.ts" />
import { createRequire } from "node:module";
import path from "node:path";
import { pino, type Logger } from "pino";
import { LogFileGuard, type LogFileProblem } from "./LogFileGuard.js";

export type { Logger };

// Every line goes through one multistream: stderr always (stdout is the commands' output: a
// `--json` listing must stay parseable), a rotating log file once `logToFile` adds it. The root's level decides what is written; the streams take everything it lets through.
/**
 * The lines logged before the log file opens (a server's start: "core ready", the models scan),
 * written into the file when `logToFile` opens it, so the file tells the start too. Bounded.
 */
const early = {
  lines: [] as string[],
  open: true,
  write(line: string) {
    if (this.open && this.lines.length < 500) this.lines.push(line);
  },
};
const streams = pino.multistream([
  { level: "trace", stream: consoleStream() },
  { level: "trace", stream: early },
]);
/** The levels pino knows (`--log-level`, `PERCH_LOG_LEVEL`). */
export const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
const envLevel = process.env.PERCH_LOG_LEVEL?.trim().toLowerCase();
// pino throws on an unknown level, and every command creates its loggers on import: a typo in the
// environment must not turn `perch --version` into a stack.
const knownLevel = (logLevels as readonly string[]).includes(envLevel ?? "") ? envLevel : undefined;
const root: Logger = pino({ level: knownLevel ?? "info" }, streams);
if (envLevel && !knownLevel) {
  root.warn(
    `PERCH_LOG_LEVEL=${process.env.PERCH_LOG_LEVEL} is not a level (${logLevels.join("|")}); logging at info.`,
  );
}
/**
 * Whether a terminal's output may be coloured: not with `NO_COLOR` set to anything but "" (no-color.org),
 * unless `FORCE_COLOR` asks for colour ("", 1, 2, 3, true; "0" and "false" refuse it), which wins as
 * in Node's own `tty.hasColors`. Only for output going to a terminal: a pipe gets no colour anyway.
 */
export function colorsWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !["0", "false"].includes(force.trim().toLowerCase());
  return !env.NO_COLOR;
}

/**
 * Readable lines for a person at a terminal (pino-pretty), coloured unless `NO_COLOR`; JSON lines
 * otherwise (pipes, services, the log files) or with `PERCH_LOG_FORMAT=json`. Loaded only for a
 * terminal, so a script's `perch --version` pays nothing for it.
 */
function consoleStream(): NodeJS.WritableStream {
  if (!process.stderr.isTTY || process.env.PERCH_LOG_FORMAT === "json") return process.stderr;
  const pretty = createRequire(import.meta.url)("pino-pretty") as (options: object) => NodeJS.WritableStream;
  return pretty({
    colorize: colorsWanted(),
    sync: true,
    destination: 2,
    ignore: "pid,hostname",
    translateTime: "HH:MM:ss.l",
  });
}

// Modules create their logger at import time, before the CLI has parsed --log-level: keep them
// so a later level change reaches every one.
const children = new Set<Logger>();

/** Sets the level of the root and of every module logger, including ones already created. */
export function setRootLogLevel(level: string): void {
  root.level = level;
  for (const child of children) child.level = level;
}

/** One logger per module (Signal Desktop style): `createLogger("engine")`. */
export function createLogger(module: string): Logger {
  const child = root.child({ module });
  children.add(child);
  return child;
}

/** Name of the link to the active log file inside the logs folder (pino-roll keeps it current). */
export const currentLogName = "current.log";

/**
 * Also writes every log line to `<dir>/perch.N.log`, rotated at 10 MiB and daily, keeping the 5
 * newest; `<dir>/current.log` links to the active one (what `perch logs` reads). While the file
 * cannot be written, lines are dropped and it is tried again after `retryAfterMs` (see `LogFileGuard`).
 */
export async function logToFile(dir: string, options: { retryAfterMs?: number } = {}): Promise<string> {
  const { default: roll } = await import("pino-roll");
  const stream = await roll({
    file: path.join(dir, "perch"),
    extension: ".log",
    size: "10m",
    frequency: "daily",
    limit: { count: 5 },
    mkdir: true,
    symlink: true,
  });
  // A file that cannot be written (a full disk) drops lines and is retried; it never ends the process.
  const guard = new LogFileGuard(stream as unknown as ConstructorParameters<typeof LogFileGuard>[0], dir, {
    ...options,
    onFailing: (problem) =>
      root.warn(
        { dir, error: problem.error },
        "the log file cannot be written; log lines are dropped until it can",
      ),
    onRecovered: (problem) =>
      root.warn({ dir, dropped: problem.dropped, since: problem.since }, "the log file is written again"),
  });
  logFile = guard;
  // What was logged before the file opened comes first in it.
  for (const line of early.lines.splice(0)) guard.write(line);
  early.open = false;
  streams.add({ level: "trace", stream: guard });
  return path.join(dir, currentLogName);
}

let logFile: LogFileGuard | undefined;

/** Why the log file `logToFile` opened is not being written (a full disk), or `undefined` while it is. */
export function logFileProblem(): LogFileProblem | undefined {
  return logFile?.problem();
}
