/**
 * The ggml tensor types the GGUF writer can encode, with their ids from ggml.h.
 * Only the types the generated test models need are listed.
 */
export const GgmlType = {
  F32: 0,
  F16: 1,
  Q8_0: 8,
} as const;

export type GgmlType = (typeof GgmlType)[keyof typeof GgmlType];
