import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatRepl } from "../../../src-main/cli/run/chatRepl.js";

/*
 * The chat loop over a stand-in for `/v1/chat/completions` that streams a reasoning model's chunks
 * (the real server's streaming is covered by the terminal test; the test model does not reason).
 */
const bodies: { model: string; messages: { role: string; content: string }[] }[] = [];
/** Model `small` has a context of 60 "tokens" (characters here) and fills it in every reply. */
const smallContext = 60;
const server = http.createServer((request, response) => {
  let text = "";
  request.on("data", (chunk: Buffer) => (text += chunk.toString()));
  request.on("end", () => {
    const body = JSON.parse(text) as (typeof bodies)[number];
    bodies.push(body);
    const promptTokens = body.messages.reduce((sum, message) => sum + message.content.length, 0);
    if (body.model === "small" && promptTokens > smallContext) {
      response.writeHead(400, { "content-type": "application/json" });
      const message = `The prompt is ${promptTokens} tokens; the context of 'small' holds ${smallContext}.`;
      const details = { promptTokens, contextSize: smallContext };
      response.end(JSON.stringify({ error: { message, code: "context_length_exceeded", details } }));
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (delta: Record<string, string>, finish: string | null = null) =>
      response.write(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
      );
    chunk({ reasoning_content: "Let me think." });
    chunk({ content: "Four." });
    if (body.model === "small") chunk({}, "length");
    response.end("data: [DONE]\n\n");
  });
});
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("perch run's chat loop", () => {
  it("shows reasoning dimmed on a terminal, keeps the conversation, and /bye ends it", async () => {
    const input = new PassThrough();
    const output = Object.assign(new PassThrough(), { isTTY: true });
    let shown = "";
    output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    const done = chatRepl({ endpoint: { url, headers: {} }, model: "m", input, output });
    // Lines typed while a reply streams wait their turn.
    input.write("what is 2+2?\nand again?\n/bye\n");
    await done;
    expect(shown).toContain("\x1b[2mLet me think.\x1b[22m\n\nFour.\n");
    // The second question carries the first exchange (the answer without its reasoning).
    expect(bodies.at(-1)?.messages).toEqual([
      { role: "user", content: "what is 2+2?" },
      { role: "assistant", content: "Four." },
      { role: "user", content: "and again?" },
    ]);
  });
});

describe("perch run's chat loop, several lines as one message", () => {
  const run = async (typed: string[], terminal: boolean) => {
    const input = Object.assign(new PassThrough(), terminal ? { isTTY: true, setRawMode: () => {} } : {});
    const output = Object.assign(new PassThrough(), { isTTY: terminal });
    let shown = "";
    output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    const before = bodies.length;
    const done = chatRepl({ endpoint: { url, headers: {} }, model: "m", input, output });
    for (const piece of typed) {
      input.write(piece);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await done;
    const sent = bodies
      .slice(before)
      .map((body) => body.messages.filter((m) => m.role === "user").at(-1)?.content);
    return { sent, shown };
  };

  it("sends a terminal paste of several lines as one message when Enter follows", async () => {
    const { sent, shown } = await run(
      ["\x1b[200~first line\nsecond line\nthird\x1b[201~", " line\r", "/bye\r"],
      true,
    );
    expect(sent).toEqual(["first line\nsecond line\nthird line"]);
    // The terminal is asked for bracketed paste, and given back its default at the end.
    expect(shown).toContain("\x1b[?2004h");
    expect(shown).toContain("\x1b[?2004l");
  });

  it('joins the lines between """ and """, and refuses an unknown /command', async () => {
    const { sent, shown } = await run(
      [
        '"""Dear model,\n',
        "please answer.\n",
        'Thanks"""\n',
        "/show info\n",
        "/etc/hosts holds what?\n",
        "/bye\n",
      ],
      false,
    );
    expect(sent).toEqual(["Dear model,\nplease answer.\nThanks", "/etc/hosts holds what?"]);
    expect(shown).toContain("Unknown command '/show'.");
  });
});

describe("perch run's chat loop, a conversation longer than the context", () => {
  it("leaves out the oldest turns to fit (saying so once), and says when a reply was cut", async () => {
    const input = new PassThrough();
    const output = Object.assign(new PassThrough(), { isTTY: false });
    let shown = "";
    output.on("data", (chunk: Buffer) => (shown += chunk.toString()));
    const before = bodies.length;
    const done = chatRepl({ endpoint: { url, headers: {} }, model: "small", input, output });
    const first = "a".repeat(30);
    const second = "b".repeat(30);
    const third = "c".repeat(30);
    input.write(`${first}\n${second}\n${third}\n${"d".repeat(61)}\n/bye\n`);
    await done;
    // Every message that fits alone got an answer.
    expect(shown.match(/Four\./g)).toHaveLength(3);
    expect(shown.match(/oldest messages are left out/g)).toHaveLength(1);
    expect(shown).toContain("(cut: the context is full");
    // Without the first exchange, not the second either: 65 characters leave no quarter free.
    const sentLast = bodies
      .slice(before)
      .filter((body) => body.messages.at(-1)?.content === third)
      .at(-1);
    expect(sentLast?.messages).toEqual([{ role: "user", content: third }]);
    // A message longer than the context alone fails with the server's words, and the chat goes on.
    expect(shown).toContain(
      "The prompt is 61 tokens; the context of 'small' holds 60. Send a shorter message.",
    );
  });
});
