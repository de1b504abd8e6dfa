import type { Command } from "commander";

/**
 * One command's path (`["eval", "run"]`), the words that may follow it (subcommand names, or the
 * fixed choices of its first argument: `completion bash|zsh`) and its option flags.
 */
export interface CommandNode {
  path: string[];
  subcommands: string[];
  options: string[];
  /** Its first argument is a model (`perch run MODEL`): model ids complete there. */
  modelArgument: boolean;
}

/** Walks commander's command tree (aliases included) into a flat list for completion scripts. */
export function commandTree(program: Command, path: string[] = []): CommandNode[] {
  const subcommands = program.commands.filter((command) => !(command as { _hidden?: boolean })._hidden);
  const node: CommandNode = {
    path,
    subcommands: [
      ...subcommands.flatMap((command) => [command.name(), ...command.aliases()]),
      ...(program.registeredArguments[0]?.argChoices ?? []),
    ],
    options: [
      ...program.options.flatMap((option) =>
        [option.long, option.short].filter((flag): flag is string => !!flag),
      ),
      "--help",
    ],
    // A local model's id (not `pull`'s remote reference, also named model).
    modelArgument: /\bmodel id\b/.test(program.registeredArguments[0]?.description ?? ""),
  };
  return [
    node,
    ...subcommands.flatMap((command) =>
      [command.name(), ...command.aliases()].flatMap((name) => commandTree(command, [...path, name])),
    ),
  ];
}
