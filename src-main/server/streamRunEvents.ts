import type { FastifyReply, FastifyRequest } from "fastify";
import { SseStream } from "./SseStream.js";

/**
 * Subscribes to one run's events (`RunEventLog.subscribe` of an eval run, a performance run, a
 * download or a chat reply): replay, then live events, then `onEnd` once. Returns an unsubscribe.
 * Throws (e.g. `run_not_found`) when there is no such run.
 */
export type SubscribeRun<E> = (onEvent: (event: E) => void, onEnd: () => void) => () => void;

export interface RunStreamOptions {
  /** Time between keep-alive comments on a quiet stream. Defaults to `15_000` ms. */
  keepAliveMs?: number;
}

/**
 * Answers a run's progress stream over SSE (`data: <event>` lines): a late subscriber first gets
 * the run so far, a finished run's stream ends after its replay, a live one when the run ends.
 * Keep-alive comments keep proxies and idle timeouts from closing a quiet stream. A client that
 * goes away only stops listening: the run goes on (its cancel route stops it). An unknown run
 * answers its JSON error (404), since nothing was sent yet. Resolves when the stream is over.
 */
export async function streamRunEvents<E>(
  request: FastifyRequest,
  reply: FastifyReply,
  subscribe: SubscribeRun<E>,
  options: RunStreamOptions = {},
): Promise<void> {
  const stream = new SseStream(request, reply);
  await new Promise<void>((resolve) => {
    let unsubscribe = () => {};
    let over = false;
    const keepAlive = setInterval(() => stream.comment("keep-alive"), options.keepAliveMs ?? 15_000);
    keepAlive.unref();
    const finish = () => {
      if (over) return;
      over = true;
      clearInterval(keepAlive);
      unsubscribe();
      resolve();
    };
    try {
      unsubscribe = subscribe(
        (event) => stream.send(event),
        () => {
          stream.end();
          finish();
        },
      );
    } catch (error) {
      stream.fail(error);
      finish();
      return;
    }
    // Ended during the replay (a finished run): `finish` ran before the unsubscribe was known.
    if (over) return unsubscribe();
    if (stream.signal.aborted) finish();
    else stream.signal.addEventListener("abort", finish, { once: true });
  });
}
