import { Command } from "commander";
import type { ModelListResponse } from "../../src-shared/contracts/models.js";
import { findServer } from "./client/findServer.js";
import { formatModelTable } from "./formatModelTable.js";
import { addGlobalOptions, type GlobalOptionValues } from "./globalOptions.js";
import { listModelRows } from "../catalog/listModelRows.js";
import { openCore } from "./openCore.js";
import { reportError } from "./reportError.js";

/** What a new user with an empty models folder reads: where Perch looked and how to add a model. */
export function describeNoModels(dirs: string[]): string {
  return [
    `No models found in ${dirs.join(", ")}.`,
    "Add one:",
    "  perch pull <owner/repo>[:QUANT]   download a GGUF from Hugging Face (ms:<owner/repo> for ModelScope)",
    `  or copy a .gguf file into ${dirs[0] ?? "<base>/models"}`,
    "  perch models make-test-model      a tiny random-weight model to try every feature",
    "",
  ].join("\n");
}

/** `perch models list` (alias `ls`): asks the running server, else reads the base path. */
export function createModelsListCommand(): Command {
  return addGlobalOptions(new Command("list"))
    .alias("ls")
    .description("list models: size, quantization, parameters, source, loaded state, accuracy and speed")
    .option("--json", "print the rows as JSON")
    .action(async (options: GlobalOptionValues & { json?: boolean }) => {
      try {
        const listing = await readListing(options);
        if (options.json) process.stdout.write(`${JSON.stringify(listing.models, null, 2)}\n`);
        else if (listing.models.length === 0) process.stdout.write(describeNoModels(listing.models_dirs));
        else process.stdout.write(formatModelTable(listing.models));
      } catch (error) {
        process.exitCode = reportError("models list", error);
      }
    });
}

async function readListing(options: GlobalOptionValues): Promise<ModelListResponse> {
  const server = await findServer(options);
  if (server) {
    // As without a server: files added or removed since the server's last scan show.
    await server.request("rescan");
    return server.request("listModels");
  }
  const core = await openCore(options);
  try {
    // The folders in effect here (--models-dir included), as the server would report its own.
    const settings = { modelsDirs: async () => core.modelsDirs };
    return await listModelRows({ ...core, settings });
  } finally {
    await core.close();
  }
}
