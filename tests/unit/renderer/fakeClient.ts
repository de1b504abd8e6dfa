import type { RouteName, StreamName } from "../../../src-shared/contracts/api.js";
import type { PerchClient, StreamHandlers } from "../../../src-renderer/client/PerchClient.js";
import { PerchClientError } from "../../../src-renderer/client/PerchClientError.js";
import { createPerchStore } from "../../../src-renderer/store/createPerchStore.js";
import type { KeyValueStorage } from "../../../src-renderer/store/PerchState.js";

type Handler = (input: unknown) => unknown;

/** A client whose routes are plain functions; records calls and live subscriptions. */
export function createFakeClient(routes: Partial<Record<RouteName, Handler>> = {}) {
  const calls: { name: RouteName; input: unknown }[] = [];
  const subscriptions: {
    name: StreamName;
    params: unknown;
    handlers: StreamHandlers<unknown>;
    closed: boolean;
  }[] = [];
  const client: PerchClient = {
    async request(name: RouteName, ...args: unknown[]) {
      calls.push({ name, input: args[0] });
      const handler = routes[name];
      if (!handler) throw new PerchClientError("not_found", `No route ${name}`, { status: 404 });
      return (await handler(args[0])) as never;
    },
    subscribe(name, params, handlers) {
      const entry = { name, params, handlers: handlers as StreamHandlers<unknown>, closed: false };
      subscriptions.push(entry);
      return () => {
        entry.closed = true;
      };
    },
  };
  return { client, calls, subscriptions, routes };
}

export function memoryStorage(): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

export function storeWith(routes: Partial<Record<RouteName, Handler>> = {}) {
  const fake = createFakeClient(routes);
  const storage = memoryStorage();
  let now = Date.parse("2026-03-01T10:00:00Z");
  const store = createPerchStore({ client: fake.client, storage, now: () => now });
  return { ...fake, store, storage, advance: (ms: number) => (now += ms) };
}
