// Runs `eval score` as its own process, the way `perch eval score` will (the test spawns this with tsx).
import { Command } from "commander";
import { createEvalScoreCommand } from "../../../../src-main/cli/evalScoreCommand.js";

await new Command("perch")
  .addCommand(new Command("eval").addCommand(createEvalScoreCommand()))
  .parseAsync(process.argv);
