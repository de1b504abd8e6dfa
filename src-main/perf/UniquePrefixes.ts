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

/**
 * Prefixes that make every prompt of a run start differently, so the engine cannot reuse a
 * cached prefix from an earlier prompt (which would flatter prompt processing). With a
 * tokenizer, the first token itself is kept unique across the run; without one (an external
 * target), the random run tag makes a shared prefix unlikely.
 */
export class UniquePrefixes {
  private counter = 0;
  private readonly usedFirstTokens = new Set<number>();

  constructor(
    private readonly runTag: string,
    private readonly firstTokenOf?: (text: string) => number | undefined,
  ) {}

  /** A new prefix, ending with a space; its first token (when known) is now taken. */
  next(): string {
    for (let attempt = 0; attempt < stems.length * 4; attempt += 1) {
      const index = this.counter;
      this.counter += 1;
      const stem = stems[index % stems.length];
      const prefix = `${stem}${index >= stems.length ? Math.floor(index / stems.length) : ""} ${this.runTag}-${index}: `;
      const first = this.firstTokenOf?.(prefix);
      if (first === undefined || !this.usedFirstTokens.has(first)) {
        if (first !== undefined) this.usedFirstTokens.add(first);
        return prefix;
      }
    }
    // Every stem's first token is taken (a tiny vocabulary): accept a repeat; the run records
    // the cached prompt tokens the engine reports, so it is visible, not hidden.
    const index = this.counter;
    this.counter += 1;
    return `${stems[index % stems.length]}${index} ${this.runTag}-${index}: `;
  }
}
