import type { FastifyInstance } from "fastify";
import { createLogger } from "../base/createLogger.js";
import type { TrayState } from "./buildTrayMenu.js";
import type { InjectRequest, InjectTarget } from "./InjectTarget.js";
import { errorMessage } from "../base/describeError.js";

const log = createLogger("app:server");

export interface ServerControllerOptions {
  /** A Fastify app with every route over the one core, not listening (`createServer` + `registerRoutes`). */
  buildApp: () => Promise<FastifyInstance>;
  host: string;
  port: number;
  /** Sent on injected requests when the server requires a key. */
  apiKey?: string;
}

export type ServerStatus = TrayState["server"];

/**
 * The HTTP server of the menu-bar app. Two Fastify instances share the core: one that never
 * listens answers the dashboard's IPC through `inject` (so the dashboard works while the port is
 * closed), and one that listens while the user has the server started.
 */
export class ServerController implements InjectTarget {
  private listening: FastifyInstance | null = null;
  private injectApp: Promise<FastifyInstance> | null = null;
  private current: ServerStatus = { state: "stopped", url: null, error: null };
  private readonly listeners = new Set<(status: ServerStatus) => void>();

  constructor(private readonly options: ServerControllerOptions) {
    this.options = { ...options };
  }

  get status(): ServerStatus {
    return this.current;
  }

  onChange(listener: (status: ServerStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    if (this.current.state === "running" || this.current.state === "starting") return;
    this.set({ state: "starting", url: null, error: null });
    let app: FastifyInstance | null = null;
    try {
      app = await this.options.buildApp();
      await app.listen({ host: this.options.host, port: this.options.port });
      const address = app.server.address();
      const port = typeof address === "object" && address ? address.port : this.options.port;
      const host = this.options.host.includes(":") ? `[${this.options.host}]` : this.options.host;
      this.listening = app;
      this.set({ state: "running", url: `http://${host}:${port}`, error: null });
      log.info({ url: this.current.url }, "server listening");
    } catch (error) {
      await app?.close().catch(() => undefined);
      const code = (error as { code?: string }).code;
      const message =
        code === "EADDRINUSE"
          ? `Port ${this.options.port} is already in use`
          : `Could not start: ${errorMessage(error)}`;
      log.error({ err: errorMessage(error) }, "server failed to start");
      this.set({ state: "failed", url: null, error: message });
    }
  }

  /** A new port applies at the next start; a running server restarts on it. */
  async setPort(port: number): Promise<void> {
    if (port === this.options.port) return;
    this.options.port = port;
    if (this.listening) {
      await this.stop();
      await this.start();
    }
  }

  async stop(): Promise<void> {
    const app = this.listening;
    if (!app) return;
    this.set({ ...this.current, state: "stopping" });
    this.listening = null;
    await app.close().catch((error: Error) => log.warn({ err: error.message }, "close failed"));
    this.set({ state: "stopped", url: null, error: null });
  }

  async request(request: InjectRequest): Promise<{ statusCode: number; body: string }> {
    const app = await this.appForInject();
    const answer = await app.inject({
      method: request.method,
      url: request.url,
      headers: this.headers(request.payload !== undefined),
      ...(request.payload !== undefined ? { payload: JSON.stringify(request.payload) } : {}),
    });
    return { statusCode: answer.statusCode, body: answer.body };
  }

  async stream(
    url: string,
    signal: AbortSignal,
  ): Promise<{ statusCode: number; body: AsyncIterable<Buffer | string> }> {
    const app = await this.appForInject();
    const answer = await app.inject({
      method: "GET",
      url,
      headers: this.headers(false),
      payloadAsStream: true,
      signal,
    });
    // Ending the subscription must reach the route (it unsubscribes on the response's close).
    signal.addEventListener("abort", () => answer.raw.res.destroy(), { once: true });
    return { statusCode: answer.statusCode, body: answer.stream() };
  }

  async dispose(): Promise<void> {
    await this.stop();
    const app = await this.injectApp?.catch(() => null);
    await app?.close().catch(() => undefined);
  }

  private headers(json: boolean): Record<string, string> {
    return {
      ...(json ? { "content-type": "application/json" } : {}),
      ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
    };
  }

  private appForInject(): Promise<FastifyInstance> {
    this.injectApp ??= this.options.buildApp().then(async (app) => {
      await app.ready();
      return app;
    });
    return this.injectApp;
  }

  private set(status: ServerStatus): void {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}
