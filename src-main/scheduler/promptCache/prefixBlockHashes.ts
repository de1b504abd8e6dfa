import { createHash } from "node:crypto";

/**
 * The hash chain of a token sequence's full blocks: entry `i` hashes block `i`'s tokens together
 * with entry `i - 1`, so it names the whole prefix up to the end of block `i`. Two sequences share
 * their first `n` entries exactly when they share their first `n * blockSize` tokens (up to
 * collisions of a 128-bit hash). A trailing partial block gets no entry.
 */
export function prefixBlockHashes(tokens: readonly number[], blockSize: number): string[] {
  const hashes: string[] = [];
  let previous = "";
  for (let end = blockSize; end <= tokens.length; end += blockSize) {
    const block = Uint32Array.from(tokens.slice(end - blockSize, end));
    previous = createHash("sha256")
      .update(previous)
      .update(Buffer.from(block.buffer, block.byteOffset, block.byteLength))
      .digest("hex")
      .slice(0, 32);
    hashes.push(previous);
  }
  return hashes;
}
