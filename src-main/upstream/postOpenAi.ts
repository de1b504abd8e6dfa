import { PerchError } from "../base/PerchError.js";
import { displayBaseUrl } from "./displayBaseUrl.js";
import { errorMessage } from "../base/describeError.js";

export interface OpenAiPost {
  url: string;
  apiKey?: string;
  body: unknown;
  signal: AbortSignal;
  /** Milliseconds before the request fails as `upstream_error` (body reading included). */
  timeoutMs?: number;
  /** `text/event-stream` for streaming requests. */
  accept?: string;
  /** Replaceable for tests. Defaults to `globalThis.fetch`. */
  fetch?: typeof fetch;
}

/** `details` of the `upstream_error` a refusing server causes. */
export interface UpstreamDetails {
  status: number;
  /** The start of the server's answer, whitespace collapsed. */
  message: string;
}

/**
 * POSTs JSON to an OpenAI-compatible server (the external targets of accuracy and performance
 * runs). Answers the response when it is 2xx. The caller's abort rethrows its reason; anything
 * else is `upstream_error`: unreachable, or the status with the start of the server's message
 * (`details.status`, `details.message`). URLs in messages never carry credentials.
 */
export async function postOpenAi(request: OpenAiPost): Promise<Response> {
  // fetch refuses URLs with credentials: they travel as Basic auth (as with curl) instead.
  const url = displayBaseUrl(request.url);
  const signal =
    request.timeoutMs === undefined
      ? request.signal
      : AbortSignal.any([request.signal, AbortSignal.timeout(request.timeoutMs)]);
  const authorization = request.apiKey ? `Bearer ${request.apiKey}` : basicAuthorization(request.url);
  let response: Response;
  try {
    response = await (request.fetch ?? globalThis.fetch)(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(request.accept ? { accept: request.accept } : {}),
        ...(authorization ? { authorization } : {}),
      },
      body: JSON.stringify(request.body),
      signal,
    });
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    throw new PerchError("upstream_error", `Could not reach ${url}: ${errorMessage(error)}`);
  }
  if (response.ok) return response;
  const detail = (await response.text().catch(() => "")).replace(/\s+/g, " ").trim().slice(0, 300);
  throw new PerchError("upstream_error", `${url} answered ${response.status}${detail ? `: ${detail}` : ""}`, {
    details: { status: response.status, message: detail } satisfies UpstreamDetails,
  });
}

/** `user:password@` of a URL as a Basic authorization header, or undefined when it has none. */
function basicAuthorization(url: string): string | undefined {
  try {
    const { username, password } = new URL(url);
    if (!username && !password) return undefined;
    const credentials = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
    return `Basic ${Buffer.from(credentials).toString("base64")}`;
  } catch {
    return undefined;
  }
}
