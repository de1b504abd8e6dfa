import { createSseParser, type SseMessage } from "./createSseParser.js";

/**
 * The server-sent events of a response body, in order, as they arrive (web streams, so the CLI,
 * the upstream client and the renderer share it). A body that ends without the final blank line
 * still yields its last event; `[DONE]` sentinels are passed through for the caller to skip.
 */
export async function* readSseMessages(
  body: AsyncIterable<Uint8Array | string> | ReadableStream<Uint8Array>,
): AsyncGenerator<SseMessage> {
  const parse = createSseParser();
  const decoder = new TextDecoder();
  const chunks: AsyncIterable<Uint8Array | string> =
    Symbol.asyncIterator in body ? body : iterate(body as ReadableStream<Uint8Array>);
  for await (const chunk of chunks) {
    yield* parse(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
  }
  yield* parse(`${decoder.decode()}\n\n`);
}

async function* iterate(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) yield chunk.value;
  } finally {
    reader.releaseLock();
  }
}
