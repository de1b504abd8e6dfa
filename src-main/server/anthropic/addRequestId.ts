import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** The header Anthropic answers every request with; its SDK reads it as `_request_id` / `requestID`. */
export const requestIdHeader = "request-id";

/**
 * Gives an Anthropic request its `request-id` (`req_…`, as Anthropic's look) before anything
 * answers it, so a JSON answer, an error and a stream all carry it; the request log names it too.
 */
export async function addRequestId(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header(requestIdHeader, `req_${crypto.randomBytes(12).toString("hex")}`);
}
