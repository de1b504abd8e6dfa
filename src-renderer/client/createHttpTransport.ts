import { apiErrorSchema } from "../../src-shared/contracts/errors.js";
import { PerchClientError, toClientError } from "./PerchClientError.js";
import { readSseMessages } from "../../src-shared/contracts/readSseMessages.js";
import type { Transport } from "./Transport.js";

export interface HttpTransportOptions {
  /** Origin of the admin API. Defaults to the page's own origin (`""`). */
  baseUrl?: string;
  /** The API key when the server requires one. */
  apiKey?: () => string | null;
  fetch?: typeof fetch;
}

async function errorFrom(response: Response): Promise<PerchClientError> {
  const text = await response.text().catch(() => "");
  try {
    const parsed = apiErrorSchema.safeParse(JSON.parse(text));
    if (parsed.success) return PerchClientError.fromApiError(response.status, parsed.data.error);
  } catch {
    // Not JSON: fall through to a generic error with the status.
  }
  return new PerchClientError("http_error", `HTTP ${response.status} ${response.statusText}`.trim(), {
    status: response.status,
  });
}

/**
 * A request that got no answer at all (the browser's bare "Failed to fetch"): Perch is not
 * running or not reachable. Said as such; the page reconnects by itself once it is back.
 */
function unreachable(baseUrl: string, error: unknown): PerchClientError {
  const where = baseUrl || (typeof location === "undefined" ? "" : location.origin);
  return new PerchClientError(
    "network_error",
    `Perch is not answering${where ? ` at ${where}` : ""}: is it still running? (${error instanceof Error ? error.message : String(error)})`,
  );
}

/** A body that is exactly the API's error shape (how SseStream ends a failed stream). */
function asStreamError(value: unknown): PerchClientError | null {
  if (typeof value !== "object" || value === null || Object.keys(value).length !== 1) return null;
  const parsed = apiErrorSchema.safeParse(value);
  return parsed.success ? PerchClientError.fromApiError(200, parsed.data.error) : null;
}

/** fetch for requests, a streamed fetch for SSE (so the API key header travels too). */
export function createHttpTransport(options: HttpTransportOptions = {}): Transport {
  const baseUrl = options.baseUrl ?? "";
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const headers = (json: boolean): Record<string, string> => {
    const result: Record<string, string> = { accept: json ? "application/json" : "text/event-stream" };
    const key = options.apiKey?.();
    if (key) result.authorization = `Bearer ${key}`;
    return result;
  };

  return {
    async send(_name, _input, request) {
      const init: RequestInit = { method: request.method, headers: headers(true) };
      if (request.body !== undefined) {
        init.headers = { ...headers(true), "content-type": "application/json" };
        init.body = JSON.stringify(request.body);
      }
      const response = await doFetch(`${baseUrl}${request.url}`, init).catch((error: unknown) => {
        throw unreachable(baseUrl, error);
      });
      if (!response.ok) throw await errorFrom(response);
      if (response.status === 204) return {};
      return response.json();
    },

    open(_name, _params, path, sink) {
      const controller = new AbortController();
      void (async () => {
        try {
          const response = await doFetch(`${baseUrl}${path}`, {
            headers: headers(false),
            signal: controller.signal,
          });
          if (!response.ok || !response.body) throw await errorFrom(response);
          for await (const message of readSseMessages(response.body)) {
            if (message.data === "[DONE]") continue;
            const data: unknown = JSON.parse(message.data);
            const error = asStreamError(data);
            if (error) sink.error(error);
            else sink.event(data);
          }
          sink.end();
        } catch (error) {
          if (!controller.signal.aborted) sink.error(toClientError(error));
        }
      })();
      return () => controller.abort();
    },
  };
}
