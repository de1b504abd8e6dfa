import { pino, type Logger } from "pino";

export type { Logger };

const root: Logger = pino({ level: process.env.PERCH_LOG_LEVEL ?? "info" });
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
