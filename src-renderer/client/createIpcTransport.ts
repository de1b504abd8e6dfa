import type { IpcResult, PerchBridge } from "../../src-shared/contracts/ipcBridge.js";
import { appPreferencesSchema } from "../../src-shared/contracts/appPreferences.js";
import { PerchClientError } from "./PerchClientError.js";
import type { Transport } from "./Transport.js";

let nextSubscription = 0;

function unwrap(result: IpcResult): unknown {
  if (!result.ok) throw PerchClientError.fromApiError(result.status, result.error);
  return result.data;
}

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
      get: async () => appPreferencesSchema.parse(unwrap(await bridge.getPreferences())),
      set: async (patch) => appPreferencesSchema.parse(unwrap(await bridge.setPreferences(patch))),
    },
  };
}
