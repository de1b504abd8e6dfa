import { Command } from "commander";
import { PerchError } from "../base/PerchError.js";
import { perchVersion } from "../base/version.js";
import { SettingsUnreadableError } from "../settings/SettingsUnreadableError.js";
import { createBenchRunCommand } from "./benchRunCommand.js";
import { createCompletionCommand } from "./completion/completionCommand.js";
import { createEvalRunCommand } from "./evalRunCommand.js";
import { createEvalScoreCommand } from "./evalScoreCommand.js";
import { createLoadCommand, createUnloadCommand } from "./loadCommand.js";
import { createLogsCommand } from "./logs/logsCommand.js";
import { createModelsCommand } from "./modelsCommand.js";
import { createPsCommand } from "./psCommand.js";
import { createPullCommand } from "./pull/pullCommand.js";
import { createRmCommand } from "./rmCommand.js";
import { createRunCommand } from "./run/runCommand.js";
import { createServeCommand } from "./serveCommand.js";

// `perch logs | head`: the reader went away. Nothing is left to say; end quietly, as `cat` does.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
}

const program = new Command()
  .name("perch")
  .description("Perch: serve local GGUF models over OpenAI/Anthropic-compatible HTTP and measure them.")
  .version(perchVersion())
  .showHelpAfterError();

program.addCommand(createServeCommand());
program.addCommand(createModelsCommand());
program.addCommand(createPullCommand());
program.addCommand(createRunCommand());
program.addCommand(createPsCommand());
program.addCommand(createLoadCommand());
program.addCommand(createUnloadCommand());
program.addCommand(createRmCommand());
program.addCommand(createLogsCommand());
program.addCommand(
  new Command("eval")
    .description("accuracy benchmarks: run them on a model, or rescore saved responses")
    .addCommand(createEvalRunCommand())
    .addCommand(createEvalScoreCommand()),
);
program.addCommand(
  new Command("bench")
    .description("performance benchmarks (speed, TTFT, memory)")
    .addCommand(createBenchRunCommand()),
);
program.addCommand(createCompletionCommand(program));

try {
  await program.parseAsync(process.argv);
} catch (error) {
  // A refusal Perch explains (unreadable settings.json, an unwritable folder, a bad flag) is a
  // message with its code, not a stack.
  if (!(error instanceof PerchError)) throw error;
  process.stderr.write(`perch: ${error.message} (${error.code})\n`);
  process.exitCode = error instanceof SettingsUnreadableError ? SettingsUnreadableError.exitCode : 1;
}
