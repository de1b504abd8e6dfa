import {
  ipcChannels,
  subscriptionIdSchema,
  type IpcResult,
  type IpcStreamMessage,
} from "../../src-shared/contracts/ipcBridge.js";
import { validateRouteInput, validateStreamInput } from "../../src-shared/contracts/routeInput.js";
import { appPreferencesPatchSchema, type AppPreferences } from "../../src-shared/contracts/appPreferences.js";
import { readSseMessages } from "../../src-shared/contracts/readSseMessages.js";
import { apiErrorSchema, type ErrorCode } from "../../src-shared/contracts/errors.js";
import { createLogger } from "../base/createLogger.js";
import type { IpcSenderLike } from "./createSenderCheck.js";
import type { InjectTarget } from "./InjectTarget.js";
import { errorMessage } from "../base/describeError.js";

const log = createLogger("app:ipc");

/** The parts of `ipcMain` used here; tests pass a fake. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  on(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => void): void;
}

export interface IpcEventLike extends IpcSenderLike {
  sender: IpcSenderLike["sender"] & {
    send(channel: string, message: IpcStreamMessage): void;
    once(event: "destroyed", listener: () => void): void;
  };
}

export interface IpcHandlerDependencies {
  isTrustedSender: (event: IpcSenderLike) => boolean;
  server: InjectTarget;
  preferences: { get(): AppPreferences; set(patch: unknown): AppPreferences };
}

const failure = (status: number, code: ErrorCode, message: string, details?: unknown): IpcResult => ({
  ok: false,
  status,
  error: { code, message, type: "invalid_request_error", param: null, ...(details ? { details } : {}) },
});

const rejectedSender = () =>
  failure(403, "forbidden", "IPC is only answered for the Perch dashboard window.");

/** The API's answer to an injected request, as an IPC result (never a thrown error). */
function toResult(statusCode: number, body: string): IpcResult {
  let data: unknown;
  try {
    data = body ? JSON.parse(body) : {};
  } catch {
    return failure(502, "internal_error", `The server answered ${statusCode} with a body that is not JSON.`);
  }
  if (statusCode < 400) return { ok: true, status: statusCode, data };
  const parsed = apiErrorSchema.safeParse(data);
  return parsed.success
    ? { ok: false, status: statusCode, error: parsed.data.error }
    : failure(statusCode, "internal_error", `The server answered ${statusCode}.`);
}

/**
 * IPC for the dashboard window: every message is checked for its sender, validated against the
 * route table, and served by the in-process server through `inject`, so HTTP and IPC share one
 * code path. Streams are forwarded as `perch:stream-message` events to the subscribing window.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, deps: IpcHandlerDependencies): void {
  const streams = new Map<string, AbortController>();

  ipcMain.handle(ipcChannels.request, async (event, name, input) => {
    if (!deps.isTrustedSender(event)) return rejectedSender();
    const validated = validateRouteInput(name, input);
    if (!validated.ok) {
      const details = validated.failure.issues.map((issue) => ({
        path: issue.path.map(String),
        message: issue.message,
      }));
      return failure(400, "invalid_request", validated.message, details);
    }
    try {
      const { method, url, body } = validated.value;
      const answer = await deps.server.request({ method, url, payload: body });
      return toResult(answer.statusCode, answer.body);
    } catch (error) {
      log.error({ err: errorMessage(error), route: name }, "IPC request failed");
      return failure(500, "internal_error", "The request could not be served.");
    }
  });

  ipcMain.handle(ipcChannels.getPreferences, (event) => {
    if (!deps.isTrustedSender(event)) return rejectedSender();
    return { ok: true, status: 200, data: deps.preferences.get() } satisfies IpcResult;
  });

  ipcMain.handle(ipcChannels.setPreferences, (event, patch) => {
    if (!deps.isTrustedSender(event)) return rejectedSender();
    const parsed = appPreferencesPatchSchema.safeParse(patch);
    if (!parsed.success) {
      const details = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String),
        message: issue.message,
      }));
      return failure(
        400,
        "invalid_request",
        `Invalid preferences: ${parsed.error.issues[0]?.message}`,
        details,
      );
    }
    return { ok: true, status: 200, data: deps.preferences.set(parsed.data) } satisfies IpcResult;
  });

  ipcMain.on(ipcChannels.subscribe, (event, subscription, name, params) => {
    if (!deps.isTrustedSender(event)) return;
    const id = subscriptionIdSchema.safeParse(subscription);
    if (!id.success) return;
    const send = (message: IpcStreamMessage) => {
      try {
        event.sender.send(ipcChannels.streamMessage, message);
      } catch {
        // The window went away mid-stream; the abort below stops the work.
      }
    };
    const validated = validateStreamInput(name, params);
    if (!validated.ok) {
      send({
        kind: "error",
        subscription: id.data,
        error: {
          code: "invalid_request",
          message: validated.message,
          type: "invalid_request_error",
          param: null,
        },
      });
      return;
    }
    const key = `${event.sender.id}:${id.data}`;
    streams.get(key)?.abort();
    const controller = new AbortController();
    streams.set(key, controller);
    event.sender.once("destroyed", () => controller.abort());
    void forward(deps.server, validated.path, controller.signal, id.data, send).finally(() => {
      if (streams.get(key) === controller) streams.delete(key);
    });
  });

  ipcMain.on(ipcChannels.unsubscribe, (event, subscription) => {
    if (!deps.isTrustedSender(event) || typeof subscription !== "string") return;
    const key = `${event.sender.id}:${subscription}`;
    streams.get(key)?.abort();
    streams.delete(key);
  });
}

async function forward(
  server: InjectTarget,
  path: string,
  signal: AbortSignal,
  subscription: string,
  send: (message: IpcStreamMessage) => void,
): Promise<void> {
  try {
    const answer = await server.stream(path, signal);
    if (answer.statusCode >= 400) {
      let text = "";
      for await (const chunk of answer.body) text += chunk.toString();
      const result = toResult(answer.statusCode, text);
      if (!result.ok) send({ kind: "error", subscription, error: result.error });
      return;
    }
    for await (const message of readSseMessages(answer.body)) {
      if (signal.aborted) return;
      if (message.data === "[DONE]") continue;
      const data: unknown = JSON.parse(message.data);
      const error = apiErrorSchema.safeParse(data);
      if (error.success && Object.keys(data as object).length === 1) {
        send({ kind: "error", subscription, error: error.data.error });
      } else send({ kind: "event", subscription, event: data });
    }
    if (!signal.aborted) send({ kind: "end", subscription });
  } catch (error) {
    if (signal.aborted) return;
    log.warn({ err: errorMessage(error), path }, "IPC stream failed");
    send({
      kind: "error",
      subscription,
      error: {
        code: "internal_error",
        message: "The progress stream broke off.",
        type: "server_error",
        param: null,
      },
    });
  }
}
