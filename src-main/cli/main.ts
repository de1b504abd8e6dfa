import { Command } from "commander";
import { createServeCommand } from "./serveCommand.js";
import { createModelsCommand } from "./modelsCommand.js";

const program = new Command()
  .name("perch")
  .description("Perch: serve local GGUF models over OpenAI/Anthropic-compatible HTTP and measure them.")
  .version("0.1.0")
  .showHelpAfterError();

program.addCommand(createServeCommand());
program.addCommand(createModelsCommand());

await program.parseAsync(process.argv);
