/** llama.cpp's sequence state file: `ggsq` magic, format version, token count, tokens, then the state. */
export const sequenceStateMagic = 0x67677371;

/**
 * The tokens a llama.cpp sequence state file (`llama_state_seq_save_file`) starts with, or
 * `undefined` when it is not one or is cut short. Read to check a file against its index entry
 * before llama.cpp ever sees it.
 */
export function readStateFileTokens(data: Buffer): number[] | undefined {
  if (data.length < 12 || data.readUInt32LE(0) !== sequenceStateMagic) return undefined;
  const count = data.readUInt32LE(8);
  if (12 + count * 4 > data.length) return undefined;
  const tokens: number[] = [];
  for (let offset = 12; offset < 12 + count * 4; offset += 4) tokens.push(data.readUInt32LE(offset));
  return tokens;
}
