// pino-roll 4 ships no types: the part of its API `logToFile` uses.
declare module "pino-roll" {
  import type { DestinationStream } from "pino";

  export interface PinoRollOptions {
    file: string | (() => string);
    size?: number | string;
    frequency?: number | "daily" | "hourly";
    extension?: string;
    symlink?: boolean;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    dateFormat?: string;
    mkdir?: boolean;
  }

  export default function build(options: PinoRollOptions): Promise<DestinationStream>;
}
