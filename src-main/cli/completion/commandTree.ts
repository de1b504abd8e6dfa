import type { Command } from "commander";

/** One command's path (`["eval", "run"]`), its subcommand names and its option flags. */
export interface CommandNode {
  path: string[];
  subcommands: string[];
  options: string[];
}

/** Walks commander's command tree (aliases included) into a flat list for completion scripts. */
export function commandTree(program: Command, path: string[] = []): CommandNode[] {
  const subcommands = program.commands.filter((command) => !(command as { _hidden?: boolean })._hidden);
  const node: CommandNode = {
    path,
    subcommands: subcommands.flatMap((command) => [command.name(), ...command.aliases()]),
    options: [
      ...program.options.flatMap((option) =>
        [option.long, option.short].filter((flag): flag is string => !!flag),
      ),
      "--help",
    ],
  };
  return [
    node,
    ...subcommands.flatMap((command) =>
      [command.name(), ...command.aliases()].flatMap((name) => commandTree(command, [...path, name])),
    ),
  ];
}
