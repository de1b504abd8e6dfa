import { benchmarkNameSchema } from "../../../src-shared/contracts/accuracy.js";
import type { CommandNode } from "./commandTree.js";

/**
 * A bash completion function over the command tree: it finds the deepest command named by the
 * words so far and offers its subcommands, or its options after a `-`; model ids (read from the
 * base folder's `model_catalog.json`, no Perch started: the `--base-path` on the line, else
 * `$PERCH_HOME`, else `~/.perch`) where a model goes, benchmark names after `--benchmark` (each
 * name of a comma-separated list).
 */
export function bashCompletion(name: string, nodes: CommandNode[]): string {
  const modelCommands = nodes.filter((node) => node.modelArgument).map((node) => `"${node.path.join(" ")}"`);
  const cases = nodes
    .map((node) => {
      const words = node.path.join(" ");
      return `    "${words}") subcommands="${node.subcommands.join(" ")}"; options="${node.options.join(" ")}" ;;`;
    })
    .join("\n");
  return `# ${name} completion for bash. Load it with: source <(${name} completion bash)
_${name}_base() {
  # bash splits "--base-path=dir" into three words ("--base-path", "=", "dir").
  local i base="\${PERCH_HOME:-$HOME/.perch}"
  for ((i = 1; i < \${#COMP_WORDS[@]}; i++)); do
    if [[ "\${COMP_WORDS[i]}" == "--base-path" && $i -ne $COMP_CWORD ]]; then
      if [[ "\${COMP_WORDS[i+1]}" == "=" ]]; then base="\${COMP_WORDS[i+2]}"; else base="\${COMP_WORDS[i+1]}"; fi
    fi
  done
  echo "\${base/#\\~/$HOME}"
}
_${name}_models() {
  # The catalog Perch writes (JSON.stringify, two-space indent): one "id" per model entry.
  sed -n 's/^      "id": "\\(.*\\)",$/\\1/p' "$(_${name}_base)/model_catalog.json" 2>/dev/null
}
_${name}_completion() {
  local current="\${COMP_WORDS[COMP_CWORD]}" path="" candidate subcommands options i
  for ((i = 1; i < COMP_CWORD; i++)); do
    candidate="\${path:+$path }\${COMP_WORDS[i]}"
    case "$candidate" in
${nodes
  .map((node) => `      "${node.path.join(" ")}") path="$candidate" ;;`)
  .filter((line) => !line.includes('""'))
  .join("\n")}
    esac
  done
  case "$path" in
${cases}
  esac
  local previous="\${COMP_WORDS[COMP_CWORD-1]}"
  if [[ "$previous" == "--model" ]]; then
    COMPREPLY=($(compgen -W "$(_${name}_models)" -- "$current"))
    return
  fi
  if [[ "$previous" == "--benchmark" ]]; then
    # A comma-separated list: complete its last name, keeping the ones before it.
    local listed=""
    [[ "$current" == *,* ]] && listed="\${current%,*},"
    COMPREPLY=($(compgen -P "$listed" -W "${benchmarkNameSchema.options.join(" ")}" -- "\${current##*,}"))
    return
  fi
  if [[ "$current" == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$current"))
  elif [[ -n "$path" && "$previous" == "\${path##* }" ]] && case "$path" in ${modelCommands.join("|") || '""'}) true ;; *) false ;; esac; then
    COMPREPLY=($(compgen -W "$(_${name}_models)" -- "$current"))
  else
    COMPREPLY=($(compgen -W "$subcommands" -- "$current"))
  fi
}
complete -o default -F _${name}_completion ${name}
`;
}

/** The zsh version: zsh runs the bash function through bashcompinit. */
export function zshCompletion(name: string, nodes: CommandNode[]): string {
  return `#compdef ${name}
# ${name} completion for zsh. Load it with: source <(${name} completion zsh)
autoload -U +X compinit && compinit
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(name, nodes).split("\n").slice(1).join("\n")}`;
}
