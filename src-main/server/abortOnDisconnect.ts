import type { FastifyReply } from "fastify";
import type { PerchError } from "../base/PerchError.js";

/**
 * A signal that aborts when the client goes away before the (non-streaming) answer is sent, so
 * its sequence or queue place is released at once instead of generating for nobody; and when the
 * server shuts down before the answer is done, with the error it is to be answered with.
 */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableEnded) controller.abort(new Error("client disconnected"));
  });
  reply.server.inFlightGenerations?.track(reply, (error: PerchError) => {
    if (!controller.signal.aborted) controller.abort(error);
  });
  return controller.signal;
}
