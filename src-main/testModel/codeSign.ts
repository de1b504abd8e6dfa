/** ±1 value of bit `bit` of `code`: how the weights carry a code. */
export function codeSign(code: number, bit: number): 1 | -1 {
  return (code >> bit) & 1 ? 1 : -1;
}
