import { describe, expect, it } from "vitest";
import { createClient } from "../../../src-renderer/client/createClient.js";
import { createHttpTransport } from "../../../src-renderer/client/createHttpTransport.js";
import { createIpcTransport } from "../../../src-renderer/client/createIpcTransport.js";
import { PerchClientError } from "../../../src-renderer/client/PerchClientError.js";
import type { IpcStreamMessage, PerchBridge } from "../../../src-shared/contracts/ipcBridge.js";
import { modelRow } from "./fixtures.js";

function fakeFetch(answer: (url: string, init: RequestInit) => Response) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    return answer(url, init);
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("HTTP transport", () => {
  it("sends validated requests with the API key and parses the answer by the contract", async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { models: [modelRow()], models_dirs: ["/m"] }));
    const client = createClient(createHttpTransport({ fetch, apiKey: () => "secret" }));
    const answer = await client.request("listModels");
    expect(answer.models[0].id).toBe("perch-test/perch-test-model-Q8_0");
    expect(seen[0].url).toBe("/admin/api/models");
    expect((seen[0].init.headers as Record<string, string>).authorization).toBe("Bearer secret");
    expect(seen[0].init.body).toBeUndefined();
  });

  it("rejects invalid input before sending, with the field path", async () => {
    const { fetch, seen } = fakeFetch(() => json(200, {}));
    const client = createClient(createHttpTransport({ fetch }));
    const error = await client
      .request("putModelSettings", { params: { model_id: "m" }, body: { sampling: { temperature: 7 } } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PerchClientError);
    expect(error).toMatchObject({ code: "invalid_request", param: "sampling.temperature" });
    expect(seen).toHaveLength(0);
  });

  it("says in words that Perch is not answering when a request gets no answer at all", async () => {
    const fetch = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof globalThis.fetch;
    const client = createClient(createHttpTransport({ fetch, baseUrl: "http://127.0.0.1:18730" }));
    await expect(client.request("listModels")).rejects.toMatchObject({
      code: "network_error",
      message: "Perch is not answering at http://127.0.0.1:18730: is it still running? (Failed to fetch)",
    });
  });

  it("turns the API's error shape into a PerchClientError", async () => {
    const { fetch } = fakeFetch(() =>
      json(404, {
        error: { message: "No model 'x'", type: "not_found_error", code: "model_not_found", param: null },
      }),
    );
    const client = createClient(createHttpTransport({ fetch }));
    await expect(client.request("deleteModel", { params: { model_id: "x" } })).rejects.toMatchObject({
      code: "model_not_found",
      status: 404,
      message: "No model 'x'",
    });
  });

  it("flags an answer that breaks the contract instead of passing it on", async () => {
    const { fetch } = fakeFetch(() => json(200, { models: "nope" }));
    const client = createClient(createHttpTransport({ fetch }));
    await expect(client.request("listModels")).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("streams SSE events, skips unknown ones and reports the end", async () => {
    const event = (seq: number, type: string, extra = {}) =>
      `data: ${JSON.stringify({ run_id: "run-1", seq, at: "2026-03-01T10:00:00.000Z", type, ...extra })}\n\n`;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoder = new TextEncoder();
        controller.enqueue(encoder.encode(event(0, "run_started").slice(0, 20)));
        controller.enqueue(encoder.encode(event(0, "run_started").slice(20) + event(1, "mystery")));
        controller.enqueue(encoder.encode(event(2, "run_finished", { state: "completed", error: null })));
        controller.close();
      },
    });
    const { fetch, seen } = fakeFetch(() => new Response(body, { status: 200 }));
    const client = createClient(createHttpTransport({ fetch }));
    const events: string[] = [];
    await new Promise<void>((resolve) => {
      client.subscribe(
        "accuracyRun",
        { run_id: "run-1" },
        { onEvent: (e) => events.push(e.type), onEnd: resolve },
      );
    });
    expect(seen[0].url).toBe("/admin/api/bench/accuracy/run-1/stream");
    expect(events).toEqual(["run_started", "run_finished"]);
  });
});

describe("IPC transport", () => {
  it("unwraps results and forwards only its own stream messages", async () => {
    let subscribed: { id: string; listener: (message: IpcStreamMessage) => void } | null = null;
    const unsubscribed: string[] = [];
    const bridge: PerchBridge = {
      request: async (name) =>
        name === "health"
          ? { ok: true, status: 200, data: { status: "ok", warnings: [] } }
          : {
              ok: false,
              status: 403,
              error: { code: "forbidden", message: "no", type: "permission_error", param: null },
            },
      subscribe: (id, _name, _params, listener) => {
        subscribed = { id, listener };
      },
      unsubscribe: (id) => void unsubscribed.push(id),
      getPreferences: async () => ({ ok: true, status: 200, data: { launch_at_login: true } }),
      setPreferences: async () => ({ ok: true, status: 200, data: {} }),
    };
    const client = createClient(createIpcTransport(bridge));
    await expect(client.request("health")).resolves.toEqual({ status: "ok", warnings: [] });
    await expect(client.request("stats")).rejects.toMatchObject({ code: "forbidden", status: 403 });
    await expect(client.preferences?.get()).resolves.toEqual({
      launch_at_login: true,
      serve_on_launch: true,
    });

    const seen: unknown[] = [];
    const close = client.subscribe(
      "download",
      { run_id: "d1" },
      {
        onEvent: (event) => seen.push(event.type),
        onError: (error) => seen.push(error.code),
        onEnd: () => seen.push("end"),
      },
    );
    const { id, listener } = subscribed as unknown as {
      id: string;
      listener: (message: IpcStreamMessage) => void;
    };
    const at = "2026-03-01T10:00:00.000Z";
    listener({
      kind: "event",
      subscription: "someone-else",
      event: { type: "cancelled", run_id: "d1", at, downloaded_bytes: 0 },
    });
    listener({
      kind: "event",
      subscription: id,
      event: { type: "cancelled", run_id: "d1", at, downloaded_bytes: 0 },
    });
    listener({
      kind: "error",
      subscription: id,
      error: { code: "run_not_found", message: "m", type: "t", param: null },
    });
    listener({ kind: "end", subscription: id });
    expect(seen).toEqual(["cancelled", "run_not_found", "end"]);
    close();
    expect(unsubscribed).toEqual([id]);
  });
});
