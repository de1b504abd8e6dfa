import type { HttpMethod } from "../../src-shared/contracts/api.js";

export interface InjectRequest {
  method: HttpMethod;
  /** Path and query string. */
  url: string;
  /** JSON body; undefined sends none. */
  payload?: unknown;
}

/**
 * The in-process HTTP server, reached without a socket (`fastify.inject`): IPC requests run the
 * same routes, validation and error mapping as HTTP ones.
 */
export interface InjectTarget {
  request(request: InjectRequest): Promise<{ statusCode: number; body: string }>;
  /** A streaming GET (SSE); the body is read as it is written, until the server ends it. */
  stream(
    url: string,
    signal: AbortSignal,
  ): Promise<{ statusCode: number; body: AsyncIterable<Buffer | string> }>;
}
