import { Command } from "commander";
import { reportError } from "./reportError.js";
import { resolveConfig } from "../settings/PerchConfig.js";
import { resolveModelsDirs } from "../base/resolveModelsDirs.js";
import { addGlobalOptions, configFromOptions, type GlobalOptionValues } from "./globalOptions.js";
import { createModelsListCommand } from "./modelsListCommand.js";

export function createModelsCommand(): Command {
  const models = new Command("models").description("list models and make the generated test model");

  models.addCommand(createModelsListCommand());

  models.addCommand(
    addGlobalOptions(new Command("make-test-model"))
      .description("write the random-weight test model (and its draft) into the models folder")
      .option(
        "--realistic",
        "also write a ~360M-parameter realistic-shape model (about 390 MB; slow to make)",
      )
      .option("--no-draft", "skip the draft model used for speculative decoding")
      .option("--fim", "also write a test model with fill-in-the-middle tokens (for `suffix`)")
      .action(
        async (options: GlobalOptionValues & { realistic?: boolean; draft?: boolean; fim?: boolean }) => {
          try {
            const config = resolveConfig(configFromOptions(options));
            const dir = resolveModelsDirs(config.basePath, config.modelsDirs)[0];
            const { makeTestModelFiles } = await import("../testModel/makeTestModelFiles.js");
            const files = await makeTestModelFiles(dir, {
              draft: options.draft !== false,
              realistic: Boolean(options.realistic),
              fim: Boolean(options.fim),
            });
            process.stdout.write(`Random-weight test model(s) written (they produce gibberish by design):\n`);
            for (const file of Object.values(files)) if (file) process.stdout.write(`  ${file}\n`);
          } catch (error) {
            process.exitCode = reportError("models make-test-model", error);
          }
        },
      ),
  );
  return models;
}
