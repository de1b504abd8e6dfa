import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

/** The header Anthropic answers every request with; its SDK reads it as `_request_id` / `requestID`. */
export const requestIdHeader = "request-id";

/**
 * Gives an Anthropic request its `request-id` (`req_…`, as Anthropic's look) before anything
 * answers it, so a JSON answer, an error and a stream all carry it; the request log names it too.
 * The id the server gave every `/v1` answer (`x-request-id`) is reused, so both headers agree.
 */
export async function addRequestId(_request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (reply.hasHeader(requestIdHeader)) return;
  const given = reply.getHeader("x-request-id");
  reply.header(
    requestIdHeader,
    typeof given === "string" ? given : `req_${crypto.randomBytes(12).toString("hex")}`,
  );
}
