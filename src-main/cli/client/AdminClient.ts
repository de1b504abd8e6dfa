import {
  apiRoutes,
  type RouteInput,
  type RouteName,
  type RouteOutput,
} from "../../../src-shared/contracts/api.js";
import { validateRouteInput } from "../../../src-shared/contracts/routeInput.js";
import { readSseMessages } from "../../../src-shared/contracts/readSseMessages.js";
import { errorCodeSchema } from "../../../src-shared/contracts/errors.js";
import { PerchError } from "../../base/PerchError.js";
import type { ServerLocation } from "./findServer.js";
import { errorMessage } from "../../base/describeError.js";

/**
 * The CLI's side of the admin API of a running `perch serve`: requests go through the shared
 * route table (validated before sending, answers parsed), errors come back as `PerchError`.
 */
export class AdminClient {
  readonly url: string;
  private readonly apiKey?: string;

  constructor(location: ServerLocation) {
    this.url = location.url;
    this.apiKey = location.apiKey;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}), ...extra };
  }

  async request<N extends RouteName>(
    name: N,
    input: RouteInput<N> = {} as RouteInput<N>,
  ): Promise<RouteOutput<N>> {
    const validated = validateRouteInput(name, input);
    if (!validated.ok) throw new PerchError("invalid_request", validated.message);
    const { method, url, body } = validated.value;
    const data = await this.send(method, url, body);
    const parsed = apiRoutes[name].response.safeParse(data);
    if (!parsed.success) {
      throw new PerchError("internal_error", `The server at ${this.url} answered ${name} unexpectedly.`);
    }
    return parsed.data as RouteOutput<N>;
  }

  /** A raw JSON request, for routes outside the table (`POST /admin/api/models/{id}/load`). */
  async send(method: string, pathAndQuery: string, body?: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${pathAndQuery}`, {
        method,
        headers: this.headers(body === undefined ? {} : { "content-type": "application/json" }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new PerchError(
        "upstream_error",
        `The server at ${this.url} stopped answering: ${errorMessage(error)}`,
      );
    }
    const text = await response.text();
    const data = text ? safeJson(text) : undefined;
    if (!response.ok) throw toPerchError(response.status, data, this.url);
    return data;
  }

  /**
   * Follows an SSE stream (`data: <json>` lines) until the server ends it or `signal` aborts;
   * resolves when it ends.
   */
  async stream(pathname: string, onEvent: (data: unknown) => void, signal?: AbortSignal): Promise<void> {
    const response = await fetch(`${this.url}${pathname}`, {
      headers: this.headers({ accept: "text/event-stream" }),
      signal,
    });
    if (!response.ok || !response.body) {
      throw toPerchError(response.status, safeJson(await response.text()), this.url);
    }
    try {
      for await (const message of readSseMessages(response.body)) {
        if (message.data !== "[DONE]") onEvent(safeJson(message.data));
      }
    } catch (error) {
      if (!signal?.aborted) throw error;
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toPerchError(status: number, data: unknown, url: string): PerchError {
  const error = (data as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
    ?.error;
  const code = errorCodeSchema.safeParse(error?.code);
  const message =
    typeof error?.message === "string" ? error.message : `The server at ${url} answered HTTP ${status}.`;
  // Details travel on: a pull of a model the server is downloading follows its details.run_id.
  return new PerchError(code.success ? code.data : "internal_error", message, {
    status,
    ...(error?.details === undefined ? {} : { details: error.details }),
  });
}
