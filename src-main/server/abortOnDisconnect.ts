import type { FastifyReply } from "fastify";

/**
 * A signal that aborts when the client goes away before the (non-streaming) answer is sent, so
 * its sequence or queue place is released at once instead of generating for nobody.
 */
export function abortOnDisconnect(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableEnded) controller.abort(new Error("client disconnected"));
  });
  return controller.signal;
}
