import path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { createLogger, logLevels, logToFile, setRootLogLevel } from "../base/createLogger.js";
import { resolveModelsDirs } from "../base/resolveModelsDirs.js";
import { explainListenError } from "./explainListenError.js";
import { reportError } from "./reportError.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";

const parsePort = (value: string) => {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("must be 0-65535");
  return port;
};

/** As settings.json's `threads` (1–256): 0, -2, abc and 1.5 are refused, never silently replaced. */
export const parseThreads = (value: string) => {
  const threads = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isInteger(threads) || threads < 1 || threads > 256)
    throw new InvalidArgumentError("must be a whole number from 1 to 256");
  return threads;
};

/** Says plainly what the generated starter model is and how to add a real one. */
function describeStarterModel(modelsDirs: readonly string[], file: string): string {
  return [
    `No models found in ${modelsDirs.join(", ")}.`,
    `Generated a tiny RANDOM-WEIGHT TEST MODEL so every feature can be tried without a download:`,
    `  ${file}`,
    `It produces gibberish by design. To serve a real model: perch pull <owner/repo>[:QUANT]`,
    `(or the dashboard's downloads), or put a .gguf file into ${modelsDirs[0]} and rescan.`,
    "",
  ].join("\n");
}

export function createServeCommand(): Command {
  return addGlobalOptions(new Command("serve"))
    .description(
      "start the HTTP server (OpenAI /v1/*, Anthropic /v1/messages, Ollama /api/*, admin API, web dashboard)",
    )
    .option("--host <host>", "address to bind (default: settings.json, else 127.0.0.1)")
    .option("--port <port>", "port to listen on (default: settings.json, else 11435)", parsePort)
    .option("--api-key <key>", "require this key on /v1/*, /api/* and /admin/* (default: $PERCH_API_KEY)")
    .option("--allow-remote-admin", "let non-loopback clients use /admin/*", false)
    .option(
      "--threads <n>",
      "CPU threads for llama.cpp, 1-256 (default: settings.json, else Perch picks)",
      parseThreads,
    )
    .addOption(new Option("--log-level <level>", "what to log").choices(logLevels).default("info"))
    .option("--no-starter-model", "do not generate the random-weight test model when no model is found")
    .action(async (options: GlobalOptionValues & Record<string, unknown>) => {
      setRootLogLevel(String(options.logLevel));
      // Loaded here, not at the top: `perch --help` must not pay for node-llama-cpp and fastify.
      const [{ createCore }, { startServer }, { ensureStarterModel }] = await Promise.all([
        import("../core/createCore.js"),
        import("../server/startServer.js"),
        import("../catalog/ensureStarterModel.js"),
      ]);
      const core = await createCore({
        ...configFromOptions(options),
        // Unset flags leave settings.json (then the built-in defaults) in charge.
        host: options.host as string | undefined,
        port: options.port as number | undefined,
        apiKey: (options.apiKey as string | undefined) ?? process.env.PERCH_API_KEY,
        allowRemoteAdmin: Boolean(options.allowRemoteAdmin),
        ...(typeof options.threads === "number" ? { threads: options.threads } : {}),
      });
      if (options.starterModel !== false) {
        const modelsDirs = resolveModelsDirs(core.config.basePath, core.config.modelsDirs);
        const files = await ensureStarterModel(core.catalog, modelsDirs);
        if (files) process.stdout.write(describeStarterModel(modelsDirs, files.main));
      }
      let started;
      try {
        started = await startServer(core);
      } catch (error) {
        await core.close();
        process.exitCode = reportError(
          "serve",
          await explainListenError(error, core.config.host, core.config.port, core.config.basePath),
        );
        return;
      }
      const { app, url } = started;
      // Only once the port is ours: a second `perch serve` that fails must not write into this log.
      await logToFile(path.join(core.config.basePath, "logs"));
      createLogger("serve").info({ url }, "serving");
      process.stdout.write(`Perch is serving at ${url}  (dashboard: ${url}/, OpenAI base URL: ${url}/v1)\n`);
      const shutdown = async () => {
        await app.close();
        await core.close();
        process.exit(0);
      };
      process.once("SIGINT", () => void shutdown());
      process.once("SIGTERM", () => void shutdown());
    });
}
