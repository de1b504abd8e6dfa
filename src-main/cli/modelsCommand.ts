import { Command } from "commander";
import { setRootLogLevel } from "../core/createLogger.js";
import { resolveConfig, resolveModelsDirs } from "../core/PerchConfig.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";

export function createModelsCommand(): Command {
  const models = new Command("models").description("list models and make the generated test model");

  models.addCommand(
    addGlobalOptions(new Command("list"))
      .description("list the models found in the models folders")
      .option("--json", "print JSON")
      .action(async (options: GlobalOptionValues & { json?: boolean }) => {
        setRootLogLevel("warn");
        // Loaded when run, not at the top: `perch --help` must not pay for node-llama-cpp.
        const { createCore } = await import("../core/createCore.js");
        const core = await createCore(configFromOptions(options));
        const list = await core.models.list();
        if (options.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        else if (list.length === 0) process.stdout.write("No models found.\n");
        else for (const model of list) process.stdout.write(`${model.id}\t${model.path}\n`);
        await core.close();
      }),
  );

  models.addCommand(
    addGlobalOptions(new Command("make-test-model"))
      .description("write the random-weight test model (and its draft) into the models folder")
      .option("--realistic", "also write a ~150-400M parameter realistic-shape model (slow, large)")
      .option("--no-draft", "skip the draft model used for speculative decoding")
      .action(async (options: GlobalOptionValues & { realistic?: boolean; draft?: boolean }) => {
        const config = resolveConfig(configFromOptions(options));
        const dir = resolveModelsDirs(config.basePath, config.modelsDirs)[0];
        const { makeTestModelFiles } = await import("../engine/testModel/makeTestModelFiles.js");
        const files = await makeTestModelFiles(dir, {
          draft: options.draft !== false,
          realistic: Boolean(options.realistic),
        });
        process.stdout.write(`Random-weight test model(s) written (they produce gibberish by design):\n`);
        for (const file of Object.values(files)) if (file) process.stdout.write(`  ${file}\n`);
      }),
  );
  return models;
}
