import { describe, expect, it } from "vitest";
import { readSseMessages } from "../../../src-shared/contracts/readSseMessages.js";

const collect = async (body: Parameters<typeof readSseMessages>[0]) => {
  const messages = [];
  for await (const message of readSseMessages(body)) messages.push(message);
  return messages;
};
const streamOf = (chunks: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });

describe("readSseMessages", () => {
  it("decodes a character split across chunks and keeps events in order", async () => {
    const bytes = new TextEncoder().encode('data: {"t":"é"}\n\nevent: end\ndata: [DONE]\n\n');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const messages = await collect(streamOf([bytes.slice(0, split), bytes.slice(split)]));
    expect(messages).toEqual([
      { event: null, data: '{"t":"é"}' },
      { event: "end", data: "[DONE]" },
    ]);
  });

  it("yields the last event of a body that ends without the blank line", async () => {
    const messages = await collect(streamOf([new TextEncoder().encode(": keep-alive\n\ndata: last")]));
    expect(messages).toEqual([{ event: null, data: "last" }]);
  });

  it("reads async iterables of strings and bytes (Node streams) the same way", async () => {
    async function* chunks() {
      yield "data: a\n";
      yield new TextEncoder().encode("\ndata: b\n\n");
    }
    expect((await collect(chunks())).map((message) => message.data)).toEqual(["a", "b"]);
  });
});
