import { createSseParser, type SseMessage } from "./createSseParser.js";

/** A web `ReadableStream` of bytes, described structurally: src-shared takes no DOM types. */
interface ByteStream {
  getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; releaseLock(): void };
}
interface Utf8Decoder {
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
// Every runtime Perch runs in (Node, Electron, the browser) has TextDecoder; the ES lib lacks it.
const Decoder = (globalThis as unknown as { TextDecoder: new () => Utf8Decoder }).TextDecoder;

/**
 * The server-sent events of a response body, in order, as they arrive (the CLI, the upstream
 * client, the IPC bridge and the renderer share it). A body that ends without the final blank
 * line still yields its last event; `[DONE]` sentinels are passed through for the caller to skip.
 */
export async function* readSseMessages(
  body: AsyncIterable<Uint8Array | string> | ByteStream,
): AsyncGenerator<SseMessage> {
  const parse = createSseParser();
  const decoder = new Decoder();
  const chunks: AsyncIterable<Uint8Array | string> = "getReader" in body ? iterate(body) : body;
  for await (const chunk of chunks) {
    yield* parse(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  }
  yield* parse(`${decoder.decode()}\n\n`);
}

async function* iterate(stream: ByteStream): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (chunk.value) yield chunk.value;
    }
  } finally {
    reader.releaseLock();
  }
}
