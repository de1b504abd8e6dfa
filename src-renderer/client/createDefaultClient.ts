import type { PerchBridge } from "../../src-shared/contracts/ipcBridge.js";
import { createClient } from "./createClient.js";
import { createHttpTransport } from "./createHttpTransport.js";
import { createIpcTransport } from "./createIpcTransport.js";
import type { PerchClient } from "./PerchClient.js";

export const apiKeyStorageKey = "perch.apiKey";

/** IPC when the Electron preload put a bridge on `window`, HTTP to this origin otherwise. */
export function createDefaultClient(): PerchClient {
  const bridge = (window as unknown as { perch?: PerchBridge }).perch;
  if (bridge) return createClient(createIpcTransport(bridge));
  return createClient(createHttpTransport({ apiKey: () => window.localStorage.getItem(apiKeyStorageKey) }));
}
