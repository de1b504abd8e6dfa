import { z } from "zod";
import { safeIdSchema } from "./primitives.js";
import type { RouteName, StreamName } from "./api.js";
import type { AppPreferencesPatch } from "./appPreferences.js";
import { apiErrorSchema } from "./errors.js";

/*
 * The Electron IPC bridge (`window.perch`): the preload exposes exactly this, the main process
 * validates every message with the route table (`api.ts`) and checks the sender.
 */
export const ipcChannels = {
  request: "perch:request",
  subscribe: "perch:subscribe",
  unsubscribe: "perch:unsubscribe",
  streamMessage: "perch:stream-message",
  getPreferences: "perch:get-preferences",
  setPreferences: "perch:set-preferences",
} as const;

/** What an IPC request answers: data or the API's error shape, never a thrown error. */
export const ipcResultSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), status: z.number().int(), data: z.unknown() }),
  z.object({ ok: z.literal(false), status: z.number().int(), error: apiErrorSchema.shape.error }),
]);
export type IpcResult = z.infer<typeof ipcResultSchema>;

export const subscriptionIdSchema = safeIdSchema();

/** One message of a stream forwarded over IPC. */
export const ipcStreamMessageSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("event"), subscription: subscriptionIdSchema, event: z.unknown() }),
  z.object({
    kind: z.literal("error"),
    subscription: subscriptionIdSchema,
    error: apiErrorSchema.shape.error,
  }),
  z.object({ kind: z.literal("end"), subscription: subscriptionIdSchema }),
]);
export type IpcStreamMessage = z.infer<typeof ipcStreamMessageSchema>;

/** `window.perch` in the Electron dashboard window. */
export interface PerchBridge {
  request(name: RouteName, input: unknown): Promise<IpcResult>;
  subscribe(
    subscription: string,
    name: StreamName,
    params: unknown,
    listener: (message: IpcStreamMessage) => void,
  ): void;
  unsubscribe(subscription: string): void;
  /** The Electron app's own preferences (only the IPC transport has them). */
  getPreferences(): Promise<IpcResult>;
  setPreferences(patch: AppPreferencesPatch): Promise<IpcResult>;
}
