import type { PerchBridge } from "../../src-shared/contracts/api.js";
import { PerchClientError } from "./PerchClientError.js";
import type { Transport } from "./Transport.js";

let nextSubscription = 0;

/** Requests and streams through the Electron preload bridge (`window.perch`). */
export function createIpcTransport(bridge: PerchBridge): Transport {
  return {
    async send(name, input) {
      const result = await bridge.request(name, input);
      if (!result.ok) throw PerchClientError.fromApiError(result.status, result.error);
      return result.data;
    },

    open(name, params, _path, sink) {
      nextSubscription += 1;
      const subscription = `s${Date.now().toString(36)}-${nextSubscription}`;
      bridge.subscribe(subscription, name, params, (message) => {
        if (message.subscription !== subscription) return;
        if (message.kind === "event") sink.event(message.event);
        else if (message.kind === "error") sink.error(PerchClientError.fromApiError(0, message.error));
        else sink.end();
      });
      return () => bridge.unsubscribe(subscription);
    },

    preferences: {
      get: () => bridge.getPreferences(),
      async set(patch) {
        const result = await bridge.setPreferences(patch);
        if (!result.ok) throw PerchClientError.fromApiError(result.status, result.error);
        return result.data as Awaited<ReturnType<PerchBridge["getPreferences"]>>;
      },
    },
  };
}
