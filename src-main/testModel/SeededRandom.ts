/**
 * Deterministic PRNG (xoshiro128**) seeded from a string, so every generated model is the same
 * bytes on every machine and Node version (Math.random cannot be seeded).
 */
export class SeededRandom {
  readonly #state = new Uint32Array(4);

  constructor(seed: string) {
    // cyrb128: spreads the seed string over four non-zero 32-bit words.
    let h1 = 1779033703;
    let h2 = 3144134277;
    let h3 = 1013904242;
    let h4 = 2773480762;
    for (let i = 0; i < seed.length; i++) {
      const code = seed.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ code, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ code, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ code, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ code, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    this.#state.set([(h1 ^ h2 ^ h3 ^ h4) | 1, h2 ^ h1, h3 ^ h1, h4 ^ h1]);
  }

  nextUint32(): number {
    const s = this.#state;
    const result = Math.imul(rotateLeft(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotateLeft(s[3], 11);
    return result;
  }

  /** Uniform in [0, 1). */
  nextFloat(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform in [-amplitude, amplitude). */
  symmetric(amplitude: number): number {
    return (this.nextFloat() * 2 - 1) * amplitude;
  }

  /** Uniform integer in [0, count). */
  nextInt(count: number): number {
    return Math.floor(this.nextFloat() * count);
  }

  /** Fills `target` with uniform values in [-amplitude, amplitude). */
  fillSymmetric(target: Float32Array, amplitude: number, from = 0, to = target.length): Float32Array {
    for (let i = from; i < to; i++) target[i] = (this.nextUint32() / 2147483648 - 1) * amplitude;
    return target;
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.nextInt(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  }
}

function rotateLeft(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}
