import type { LlamaContext } from "node-llama-cpp";

/** Records the sequence ids and token counts of every decode of the context's native object. */
export function recordDecodes(context: LlamaContext): { sequenceId: number; tokens: number }[][] {
  const native = (context as unknown as { _ctx: Record<string, (...args: unknown[]) => unknown> })._ctx;
  const addToBatch = native.addToBatch!;
  const decodeBatch = native.decodeBatch!;
  const decodes: { sequenceId: number; tokens: number }[][] = [];
  let current: { sequenceId: number; tokens: number }[] = [];
  Object.defineProperty(native, "addToBatch", {
    configurable: true,
    value: (...args: unknown[]) => {
      current.push({ sequenceId: args[0] as number, tokens: (args[2] as Uint32Array).length });
      return addToBatch.apply(native, args);
    },
  });
  Object.defineProperty(native, "decodeBatch", {
    configurable: true,
    value: (...args: unknown[]) => {
      decodes.push(current);
      current = [];
      return decodeBatch.apply(native, args);
    },
  });
  return decodes;
}
