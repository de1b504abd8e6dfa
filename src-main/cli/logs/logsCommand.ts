import fs from "node:fs";
import path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { currentLogName } from "../../base/createLogger.js";
import { defaultBasePath } from "../../settings/PerchConfig.js";
import { PerchError } from "../../base/PerchError.js";
import { addGlobalOptions, type GlobalOptionValues } from "../globalOptions.js";
import { reportError } from "../reportError.js";
import { followLogFile } from "./followLogFile.js";
import { formatLogLine } from "./formatLogLine.js";

interface LogsOptions extends GlobalOptionValues {
  follow?: boolean;
  lines: number;
  json?: boolean;
}

const parseLines = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError("expected a whole number");
  return number;
};

/** `perch logs [-f] [-n N]`: the server's log (`<base>/logs/current.log`), readable or raw. */
export function createLogsCommand(): Command {
  return addGlobalOptions(new Command("logs"))
    .description("show the server's log (written by `perch serve` under <base>/logs/)")
    .option("-f, --follow", "keep printing new lines until Ctrl-C")
    .option("-n, --lines <n>", "how many of the last lines to show", parseLines, 50)
    .option("--json", "print the raw JSON lines")
    .action(async (options: LogsOptions) => {
      try {
        const dir = path.join(options.basePath ? path.resolve(options.basePath) : defaultBasePath(), "logs");
        const link = path.join(dir, currentLogName);
        if (!fs.existsSync(link)) {
          throw new PerchError(
            "not_found",
            `No log in ${dir} yet: \`perch serve\` writes one there when it starts.`,
          );
        }
        const print = (line: string) =>
          process.stdout.write(`${options.json ? line : formatLogLine(line)}\n`);
        const text = fs.readFileSync(link, "utf8");
        const complete = text.slice(0, text.lastIndexOf("\n") + 1);
        const lines = complete.split("\n").filter((line) => line.trim());
        for (const line of lines.slice(Math.max(0, lines.length - options.lines))) print(line);
        if (!options.follow) return;
        const stop = new AbortController();
        process.once("SIGINT", () => stop.abort());
        process.once("SIGTERM", () => stop.abort());
        await followLogFile(link, Buffer.byteLength(complete), print, stop.signal);
      } catch (error) {
        process.exitCode = reportError("logs", error);
      }
    });
}
