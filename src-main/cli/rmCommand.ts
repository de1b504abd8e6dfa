import { Command } from "commander";
import { findServer } from "./client/findServer.js";
import { addGlobalOptions, type GlobalOptionValues } from "./globalOptions.js";
import { openCore } from "./openCore.js";
import { reportError } from "./reportError.js";

/**
 * `perch rm <model>`: deletes the model's files (all shards) through the running server, which
 * refuses while the model is in use, or directly in the base path when none runs.
 */
export function createRmCommand(): Command {
  return addGlobalOptions(new Command("rm"))
    .description("delete a model's files (its results and settings stay)")
    .argument("<model>", "model id (see `perch models list`)")
    .action(async (model: string, options: GlobalOptionValues) => {
      try {
        const server = await findServer(options);
        let files: string[];
        if (server) {
          files = (await server.request("deleteModel", { params: { model_id: model } })).files;
        } else {
          const core = await openCore(options);
          try {
            files = await core.catalog.deleteModel(model);
          } finally {
            await core.close();
          }
        }
        process.stdout.write(
          `Deleted ${model}${files.length ? `:\n${files.map((f) => `  ${f}\n`).join("")}` : "\n"}`,
        );
      } catch (error) {
        process.exitCode = reportError("rm", error);
      }
    });
}
