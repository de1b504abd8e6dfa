import type { LlamaContext } from "node-llama-cpp";

type NativeContext = Record<string, (...args: unknown[]) => unknown>;

/**
 * Wraps the context's native `addToBatch` and `decodeBatch`: `onAdd` sees each batch item
 * (sequence id, token count), `onDecode` runs as each decode starts (the native object at hand).
 */
function wrapNativeBatch(
  context: LlamaContext,
  onAdd: (sequenceId: number, tokens: number) => void,
  onDecode: (native: NativeContext) => void,
): void {
  const native = (context as unknown as { _ctx: NativeContext })._ctx;
  const addToBatch = native.addToBatch!;
  const decodeBatch = native.decodeBatch!;
  Object.defineProperty(native, "addToBatch", {
    configurable: true,
    value: (...args: unknown[]) => {
      onAdd(args[0] as number, (args[2] as Uint32Array).length);
      return addToBatch.apply(native, args);
    },
  });
  Object.defineProperty(native, "decodeBatch", {
    configurable: true,
    value: (...args: unknown[]) => {
      onDecode(native);
      return decodeBatch.apply(native, args);
    },
  });
}

/** Records the sequence ids and token counts of every decode of the context's native object. */
export function recordDecodes(context: LlamaContext): { sequenceId: number; tokens: number }[][] {
  const decodes: { sequenceId: number; tokens: number }[][] = [];
  let current: { sequenceId: number; tokens: number }[] = [];
  wrapNativeBatch(
    context,
    (sequenceId, tokens) => current.push({ sequenceId, tokens }),
    () => {
      decodes.push(current);
      current = [];
    },
  );
  return decodes;
}

/** Records the tokens and the thread count of every decode of the context's native object. */
export function recordDecodeThreads(context: LlamaContext): { tokens: number; threads: number }[] {
  const decodes: { tokens: number; threads: number }[] = [];
  let tokens = 0;
  wrapNativeBatch(
    context,
    (_sequenceId, count) => (tokens += count),
    (native) => {
      decodes.push({ tokens, threads: native.getThreads!() as number });
      tokens = 0;
    },
  );
  return decodes;
}
