import { Argument, Command } from "commander";
import { commandTree } from "./commandTree.js";
import { bashCompletion, zshCompletion } from "./completionScripts.js";

/** `perch completion bash|zsh`: prints a completion script built from the command tree itself. */
export function createCompletionCommand(program: Command): Command {
  return new Command("completion")
    .description("print a shell completion script: source <(perch completion bash)")
    .addArgument(new Argument("<shell>", "the shell").choices(["bash", "zsh"]))
    .action((shell: "bash" | "zsh") => {
      const nodes = commandTree(program);
      const name = program.name();
      process.stdout.write(shell === "bash" ? bashCompletion(name, nodes) : zshCompletion(name, nodes));
    });
}
