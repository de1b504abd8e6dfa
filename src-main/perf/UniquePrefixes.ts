// Prefix words with many different first letters, cases and symbols: even a character-level
// vocabulary then has dozens of distinct first tokens to choose from.
// prettier-ignore
const stems = [
  "Zephyr", "quartz", "Amber", "violet", "Marble", "kestrel", "Obsidian", "juniper", "Falcon", "nimbus",
  "Garnet", "umber", "Indigo", "wren", "Topaz", "lichen", "Basalt", "heron", "Cobalt", "yarrow", "Dahlia",
  "sorrel", "Ember", "plover", "Xenon", "tundra", "Lotus", "fjord", "Radish", "magpie", "Saffron", "ibis",
  "Walnut", "osprey", "Yucca", "gecko", "Nectar", "cedar", "Hazel", "raven", "Pewter", "badger", "Velvet",
  "egret", "Krypton", "dune", "Orchid", "vireo", "Quince", "zinnia", "#", "@", "%", "&", "*", "+", "=", "~",
  "^", "!", "?", "$", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
];

export interface UniquePrefixesOptions {
  /** The first token the engine will see for a prompt starting with `text`. Defaults to unknown. */
  firstTokenOf?: (text: string) => number | undefined;
  /** Stems tried after the built-in ones (a model's vocabulary pieces). Defaults to none. */
  moreStems?: () => Iterable<string>;
}

/**
 * Prefixes that make every prompt start differently, so the engine cannot reuse a cached prefix
 * of an earlier prompt (which would flatter prompt processing). With a tokenizer, the first
 * token itself is never used twice: keep one instance per loaded model (its sequences keep old
 * prompts across runs). Candidates are consumed in order, so each is tokenized at most once.
 * Without a tokenizer (an external target), the run tag makes a shared prefix unlikely.
 */
export class UniquePrefixes {
  private counter = 0;
  private readonly usedFirstTokens = new Set<number>();
  private readonly candidates: Iterator<string>;

  constructor(private readonly options: UniquePrefixesOptions = {}) {
    const more = options.moreStems;
    this.candidates = (function* () {
      yield* stems;
      if (more) yield* more();
    })();
  }

  /** A new prefix ending with a space; `runTag` names the run in the prompt text. */
  next(runTag: string): string {
    const index = this.counter;
    this.counter += 1;
    const build = (stem: string) => `${stem} ${runTag}-${index}: `;
    const firstTokenOf = this.options.firstTokenOf;
    if (!firstTokenOf)
      return build(`${stems[index % stems.length]}${Math.floor(index / stems.length) || ""}`);
    for (let candidate = this.candidates.next(); !candidate.done; candidate = this.candidates.next()) {
      const prefix = build(candidate.value);
      const first = firstTokenOf(prefix);
      if (first !== undefined && !this.usedFirstTokens.has(first)) {
        this.usedFirstTokens.add(first);
        return prefix;
      }
    }
    // Every candidate's first token is taken: accept a repeat. The engine reports the cached
    // prompt tokens, and the result records them, so this is visible, not hidden.
    return build(`${stems[index % stems.length]}${index}`);
  }
}
