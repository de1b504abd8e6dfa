import { Command, InvalidArgumentError } from "commander";
import type { LoadModelBody } from "../../src-shared/contracts/models.js";
import { PerchError } from "../base/PerchError.js";
import type { AdminClient } from "./client/AdminClient.js";
import { describeOtherFolders, lookUpServer } from "./client/findServer.js";
import { addGlobalOptions, modelsDirArguments, type GlobalOptionValues } from "./globalOptions.js";
import { reportError } from "./reportError.js";
import { resolveModelName } from "./client/resolveModelName.js";

const parseWhole = (min: number) => (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min)
    throw new InvalidArgumentError(`expected a whole number >= ${min}`);
  return number;
};

/** The running server, or a `conflict` saying to start one: loading in a process about to exit helps nobody. */
export async function requireServer(
  options: GlobalOptionValues,
  verb: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AdminClient> {
  const { server, url, otherFolders } = await lookUpServer(options, env);
  if (server) return server;
  // Starting one would be refused: this base's server runs, for other folders.
  if (otherFolders)
    throw new PerchError(
      "conflict",
      `${describeOtherFolders(url, otherFolders)}; ${verb} needs a server of those folders. Leave out --models-dir to use this one, or stop it and start: perch serve ${modelsDirArguments(otherFolders.asked)}`,
    );
  throw new PerchError(
    "conflict",
    `No server is running at ${url}; ${verb} needs one. Start it with: perch serve (or set PERCH_HOST).`,
  );
}

interface LoadOptions extends GlobalOptionValues {
  ctx?: number;
  ttl?: number;
  pin?: boolean;
}

/** `perch load <model> [--ctx N] [--ttl S] [--pin]`: loads a model into the running server. */
export function createLoadCommand(): Command {
  return addGlobalOptions(new Command("load"))
    .description("load a model into the running server (settings given here are saved to the model)")
    .argument("<model>", "model id (see `perch models list`)")
    .option("--ctx <tokens>", "context size per sequence", parseWhole(256))
    .option("--ttl <seconds>", "unload after this many idle seconds (0: never)", parseWhole(0))
    .option("--pin", "keep it loaded: never unloaded for idleness or memory")
    .option("--no-pin", "let it be unloaded again")
    .action(async (model: string, options: LoadOptions) => {
      try {
        const server = await requireServer(options, "loading a model");
        const body: LoadModelBody = {
          ...(options.ctx !== undefined ? { context_size: options.ctx } : {}),
          ...(options.ttl !== undefined ? { ttl_seconds: options.ttl } : {}),
          ...(options.pin !== undefined ? { pinned: options.pin } : {}),
        };
        const modelId = await resolveModelName(server, model);
        const answer = await server.request("loadModel", { params: { model_id: modelId }, body });
        const notes = [
          answer.settings.context_size ? `context ${answer.settings.context_size}` : null,
          answer.settings.pinned ? "pinned" : null,
          answer.settings.ttl_seconds === undefined
            ? null
            : answer.settings.ttl_seconds <= 0
              ? "never unloads"
              : `ttl ${answer.settings.ttl_seconds} s`,
        ].filter(Boolean);
        process.stdout.write(`Loaded ${answer.model_id}${notes.length ? ` (${notes.join(", ")})` : ""}\n`);
      } catch (error) {
        process.exitCode = reportError("load", error);
      }
    });
}

/** `perch unload <model>`: frees the model's memory in the running server (refused while in use). */
export function createUnloadCommand(): Command {
  return addGlobalOptions(new Command("unload"))
    .description("unload a model from the running server")
    .argument("<model>", "model id (see `perch ps`)")
    .action(async (model: string, options: GlobalOptionValues) => {
      try {
        const server = await requireServer(options, "unloading a model");
        // A loaded model whose file went is still unloaded by the name given.
        const modelId = await resolveModelName(server, model).catch(() => model);
        const answer = await server.request("unloadModel", { params: { model_id: modelId } });
        process.stdout.write(
          answer.unloaded ? `Unloaded ${answer.model_id}\n` : `${answer.model_id} was not loaded\n`,
        );
      } catch (error) {
        process.exitCode = reportError("unload", error);
      }
    });
}
