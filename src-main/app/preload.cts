// The dashboard window's preload (sandboxed, so CommonJS): exposes exactly the typed bridge of
// `src-shared/contracts/api.ts` and nothing of Node or Electron. The main process validates
// every message; this file only relays.
import { contextBridge, ipcRenderer } from "electron";
import type { IpcStreamMessage, PerchBridge, ipcChannels } from "../../src-shared/contracts/ipcBridge.js";

const channels: typeof ipcChannels = {
  request: "perch:request",
  subscribe: "perch:subscribe",
  unsubscribe: "perch:unsubscribe",
  streamMessage: "perch:stream-message",
  getPreferences: "perch:get-preferences",
  setPreferences: "perch:set-preferences",
};

const listeners = new Map<string, (message: IpcStreamMessage) => void>();
ipcRenderer.on(channels.streamMessage, (_event, message: IpcStreamMessage) => {
  listeners.get(message?.subscription)?.(message);
  if (message?.kind === "end" || message?.kind === "error") listeners.delete(message.subscription);
});

const bridge: PerchBridge = {
  request: (name, input) => ipcRenderer.invoke(channels.request, name, input),
  subscribe: (subscription, name, params, listener) => {
    listeners.set(subscription, listener);
    ipcRenderer.send(channels.subscribe, subscription, name, params);
  },
  unsubscribe: (subscription) => {
    listeners.delete(subscription);
    ipcRenderer.send(channels.unsubscribe, subscription);
  },
  getPreferences: () => ipcRenderer.invoke(channels.getPreferences),
  setPreferences: (patch) => ipcRenderer.invoke(channels.setPreferences, patch),
};

contextBridge.exposeInMainWorld("perch", bridge);
