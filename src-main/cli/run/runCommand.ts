import fs from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { defaultBasePath } from "../../settings/PerchConfig.js";
import { PerchError } from "../../base/PerchError.js";
import { AdminClient } from "../client/AdminClient.js";
import { findServer } from "../client/findServer.js";
import { resolveModelName } from "../client/resolveModelName.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "../globalOptions.js";
import { reportError } from "../reportError.js";
import { chatRepl } from "./chatRepl.js";
import { streamChat, type ChatEndpoint } from "./streamChat.js";
import { errorMessage } from "../../base/describeError.js";
import { colorsWanted } from "../../base/createLogger.js";

/**
 * `perch run <model> [prompt]`: chat with a model in the terminal through the running server, or
 * through a server started in this process (on a free loopback port) when none runs. With a
 * prompt (or piped input) it answers once and exits.
 */
export function createRunCommand(): Command {
  return addGlobalOptions(new Command("run"))
    .description("chat with a model in the terminal (or answer one prompt)")
    .argument("<model>", "model id (see `perch models list`)")
    .argument("[prompt...]", "answer this prompt and exit")
    .option("--format <json|file>", "answer in JSON, or in the JSON schema read from a file")
    .action(async (model: string, words: string[], options: GlobalOptionValues & { format?: string }) => {
      let close = async () => {};
      // A stop request (a service manager, `kill`) closes the private server as Ctrl-C does: its
      // answer ends with `server_shutting_down`, its model unloads (idle prompts to the cache).
      const onSigterm = () => {
        void close().finally(() => process.exit(143));
      };
      try {
        const server = await findServer(options);
        let admin = server;
        if (!admin) {
          const embedded = await startEmbeddedServer(options);
          admin = embedded.admin;
          close = embedded.close;
          process.once("SIGTERM", onSigterm);
        }
        // Fails early, with the server's words, on an unknown model.
        model = await resolveModelName(admin, model);
        const endpoint: ChatEndpoint = { url: admin.url, headers: admin.headers() };
        const responseFormat = options.format ? readResponseFormat(options.format) : undefined;
        const prompt = words.length > 0 ? words.join(" ") : process.stdin.isTTY ? "" : await readStdin();
        if (prompt.trim()) {
          // Ctrl-C cuts the answer: the shell learns it was interrupted (130, as pull, eval and bench).
          if (await answerOnce(endpoint, model, prompt, responseFormat)) process.exitCode = 130;
        } else {
          const base = options.basePath ? path.resolve(options.basePath) : defaultBasePath();
          const historyFile = path.join(base, "run_history");
          await chatRepl({ endpoint, model, responseFormat, historyFile });
        }
      } catch (error) {
        process.exitCode = reportError("run", error);
      } finally {
        process.removeListener("SIGTERM", onSigterm);
        await close();
      }
    });
}

/** `json` → any JSON object; otherwise a file holding a JSON schema. */
function readResponseFormat(format: string): unknown {
  if (format === "json") return { type: "json_object" };
  let schema: unknown;
  try {
    schema = JSON.parse(fs.readFileSync(format, "utf8"));
  } catch (error) {
    throw new PerchError(
      "invalid_request",
      `--format: ${format} is not "json" nor a readable JSON schema file (${errorMessage(error)}).`,
    );
  }
  return { type: "json_schema", json_schema: { name: "answer", schema } };
}

/**
 * Streams the answer to one prompt onto stdout; notes on stderr (so a pipe gets only the answer)
 * a reply stopped by Ctrl-C or cut at the context's end. Answers whether it was stopped.
 */
async function answerOnce(
  endpoint: ChatEndpoint,
  model: string,
  prompt: string,
  responseFormat: unknown,
): Promise<boolean> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once("SIGINT", onSigint);
  const dim =
    process.stdout.isTTY && colorsWanted()
      ? (text: string) => `\x1b[2m${text}\x1b[22m`
      : (text: string) => text;
  try {
    const reply = await streamChat(
      endpoint,
      {
        model,
        messages: [{ role: "user", content: prompt }],
        ...(responseFormat ? { response_format: responseFormat } : {}),
      },
      {
        onText: (text) => process.stdout.write(text),
        onReasoning: (text) => process.stdout.write(dim(text)),
      },
      stop.signal,
    );
    process.stdout.write("\n");
    if (reply.stopped) process.stderr.write("(stopped)\n");
    else if (reply.cut) process.stderr.write(`(cut: the reply filled the context of '${model}')\n`);
    return reply.stopped;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

async function startEmbeddedServer(options: GlobalOptionValues) {
  const { setRootLogLevel } = await import("../../base/createLogger.js");
  setRootLogLevel("warn");
  const { createCore } = await import("../../core/createCore.js");
  const { startServer } = await import("../../server/startServer.js");
  // Loopback and a free port: this server lives only as long as the chat.
  const core = await createCore({ ...configFromOptions(options), host: "127.0.0.1", port: 0 });
  // Private: the base's record (`server.json`) keeps naming the base's real server, if any.
  const { app, url } = await startServer(core, { recordAddress: false });
  return {
    admin: new AdminClient({ url, apiKey: core.config.apiKey }),
    close: async () => {
      await app.close();
      await core.close();
    },
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
