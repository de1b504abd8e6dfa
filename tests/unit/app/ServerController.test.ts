import net from "node:net";
import { describe, expect, it, vi } from "vitest";
import { ipcChannels, type IpcStreamMessage } from "../../../src-shared/contracts/ipcBridge.js";
import { AppPreferencesStore } from "../../../src-main/app/AppPreferencesStore.js";
import {
  registerIpcHandlers,
  type IpcEventLike,
  type IpcMainLike,
} from "../../../src-main/app/registerIpcHandlers.js";
import { ServerController } from "../../../src-main/app/ServerController.js";
import { createServer } from "../../../src-main/server/createServer.js";
import { SseStream } from "../../../src-main/server/SseStream.js";

/** A real Fastify server (the project's own error shape and security hooks) with two admin routes. */
function buildApp(events: { closed: boolean }, apiKey?: string) {
  return createServer({
    apiKey,
    allowRemoteAdmin: false,
    register: (app) => {
      app.get("/admin/api/health", async () => ({ status: "ok", warnings: [] }));
      app.get("/admin/api/bench/accuracy/:run_id/stream", async (request, reply) => {
        const stream = new SseStream(request, reply);
        const at = "2026-03-01T10:00:00.000Z";
        stream.send({ type: "run_started", run_id: "run-1", seq: 0, at });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            stream.send({
              type: "run_finished",
              run_id: "run-1",
              seq: 1,
              at,
              state: "completed",
              error: null,
            });
            stream.end();
            resolve();
          }, 50);
          stream.signal.addEventListener("abort", () => {
            events.closed = true;
            clearTimeout(timer);
            resolve();
          });
        });
      });
    },
  });
}

describe("ServerController", () => {
  it("answers IPC through inject, including a streamed route, while the port is closed", async () => {
    const controller = new ServerController({
      host: "127.0.0.1",
      port: 0,
      buildApp: () => buildApp({ closed: false }),
    });
    expect(controller.status.state).toBe("stopped");
    const health = await controller.request({ method: "GET", url: "/admin/api/health" });
    expect(health).toEqual({ statusCode: 200, body: JSON.stringify({ status: "ok", warnings: [] }) });
    const missing = await controller.request({ method: "GET", url: "/admin/api/nope" });
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe("not_found");

    const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
    const ipcMain: IpcMainLike = {
      handle: (c, l) => void handlers.set(c, l),
      on: (c, l) => void handlers.set(c, l),
    };
    registerIpcHandlers(ipcMain, {
      isTrustedSender: () => true,
      server: controller,
      preferences: new AppPreferencesStore({ store: {} }),
    });
    const sent: IpcStreamMessage[] = [];
    const event: IpcEventLike = {
      sender: { id: 1, send: (_c, message) => void sent.push(message), once: () => undefined },
      senderFrame: { url: "file:///index.html" },
    };
    handlers.get(ipcChannels.subscribe)?.(event, "s1", "accuracyRun", { run_id: "run-1" });
    await vi.waitFor(() => expect(sent.at(-1)?.kind).toBe("end"));
    expect(
      sent.map((message) =>
        message.kind === "event" ? (message.event as { type: string }).type : message.kind,
      ),
    ).toEqual(["run_started", "run_finished", "end"]);
    await controller.dispose();
  });

  it("tells the route when the subscriber goes away", async () => {
    const events = { closed: false };
    const controller = new ServerController({ host: "127.0.0.1", port: 0, buildApp: () => buildApp(events) });
    const abort = new AbortController();
    const answer = await controller.stream("/admin/api/bench/accuracy/run-1/stream", abort.signal);
    expect(answer.statusCode).toBe(200);
    abort.abort();
    await vi.waitFor(() => expect(events.closed).toBe(true));
    await controller.dispose();
  });

  it("sends the API key on injected requests when the server requires one", async () => {
    const locked = new ServerController({
      host: "127.0.0.1",
      port: 0,
      buildApp: () => buildApp({ closed: false }, "k"),
    });
    expect((await locked.request({ method: "GET", url: "/admin/api/health" })).statusCode).toBe(401);
    const keyed = new ServerController({
      host: "127.0.0.1",
      port: 0,
      apiKey: "k",
      buildApp: () => buildApp({ closed: false }, "k"),
    });
    expect((await keyed.request({ method: "GET", url: "/admin/api/health" })).statusCode).toBe(200);
    await Promise.all([locked.dispose(), keyed.dispose()]);
  });

  it("starts and stops listening, and reports a port in use", async () => {
    const states: string[] = [];
    const controller = new ServerController({
      host: "127.0.0.1",
      port: 0,
      buildApp: () => buildApp({ closed: false }),
    });
    controller.onChange((status) => states.push(status.state));
    await controller.start();
    expect(controller.status.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${controller.status.url}/admin/api/health`);
    expect(response.status).toBe(200);
    await controller.stop();
    expect(states).toEqual(["starting", "running", "stopping", "stopped"]);

    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    const clash = new ServerController({
      host: "127.0.0.1",
      port,
      buildApp: () => buildApp({ closed: false }),
    });
    await clash.start();
    expect(clash.status).toEqual({ state: "failed", url: null, error: `Port ${port} is already in use` });
    await new Promise((resolve) => blocker.close(resolve));
    await Promise.all([controller.dispose(), clash.dispose()]);
  });
});
