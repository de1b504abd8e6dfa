import { pino, type Logger } from "pino";

export type { Logger };

let root: Logger = pino({ level: process.env.PERCH_LOG_LEVEL ?? "info" });

/** Sets the level of every module logger created from now on (the CLI calls it once). */
export function setRootLogLevel(level: string): void {
  root = pino({ level });
}

/** One logger per module (Signal Desktop style): `createLogger("engine")`. */
export function createLogger(module: string): Logger {
  return root.child({ module });
}
