import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { RunEventLog } from "../../../src-main/base/RunEventLog.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { streamRunEvents } from "../../../src-main/server/streamRunEvents.js";

type Event = { type: "started" | "step" | "done"; n: number };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A server with one run stream per id in `runs`; `unsubscribed` counts listeners that stopped. */
async function serve(runs: Map<string, RunEventLog<Event>>, keepAliveMs = 15_000) {
  const counts = { unsubscribed: 0 };
  app = await createServer({
    allowRemoteAdmin: false,
    register: (server) => {
      server.get("/runs/:id/stream", async (request, reply) => {
        const { id } = request.params as { id: string };
        await streamRunEvents(
          request,
          reply,
          (onEvent, onEnd) => {
            const log = runs.get(id);
            if (!log) throw new PerchError("run_not_found", `No run '${id}'.`);
            const unsubscribe = log.subscribe(onEvent, onEnd);
            return () => {
              counts.unsubscribed += 1;
              unsubscribe();
            };
          },
          { keepAliveMs },
        );
      });
    },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { base: `http://127.0.0.1:${port}`, counts };
}

const newLog = () => new RunEventLog<Event>({ isTerminal: (event) => event.type === "done" });
const dataLines = (text: string) =>
  text
    .split("\n\n")
    .filter((block) => block.startsWith("data: "))
    .map((block) => JSON.parse(block.slice(6)) as Event);

describe("a run's SSE stream", () => {
  it("replays a finished run to a late subscriber and ends", async () => {
    const log = newLog();
    log.append({ type: "started", n: 0 });
    log.append({ type: "done", n: 1 });
    const { base } = await serve(new Map([["a", log]]));
    const response = await fetch(`${base}/runs/a/stream`);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(dataLines(await response.text()).map((event) => event.n)).toEqual([0, 1]);
  });

  it("replays the run so far, follows it live with keep-alive comments, and ends with the run", async () => {
    const log = newLog();
    log.append({ type: "started", n: 0 });
    const { base } = await serve(new Map([["a", log]]), 10);
    const response = await fetch(`${base}/runs/a/stream`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": keep-alive")) text += decoder.decode((await reader.read()).value);
    log.append({ type: "step", n: 1 });
    log.append({ type: "done", n: 2 });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value);
    }
    expect(dataLines(text).map((event) => event.n)).toEqual([0, 1, 2]);
  });

  it("answers an unknown run with its JSON error before any event", async () => {
    const { base } = await serve(new Map());
    const response = await fetch(`${base}/runs/nope/stream`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("run_not_found");
  });

  it("stops listening when the client goes away; the run goes on", async () => {
    const log = newLog();
    log.append({ type: "started", n: 0 });
    const { base, counts } = await serve(new Map([["a", log]]));
    const controller = new AbortController();
    const response = await fetch(`${base}/runs/a/stream`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    while (counts.unsubscribed === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    log.append({ type: "step", n: 1 });
    expect(log.closed).toBe(false);
    expect(log.events).toHaveLength(2);
  });
});
