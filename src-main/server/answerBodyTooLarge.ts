import http from "node:http";
import net, { type Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ErrorAnswer } from "./toErrorAnswer.js";

/** Bytes of an oversized body read and thrown away after the 413 before the connection is cut. */
export const maxDiscardBytes = 64 * 1024 * 1024;

/** Sockets whose request was answered here while its body was still arriving. */
const answeredEarly = new WeakSet<Socket>();

/** Whether a 413 was already written on this socket (a later parser error must not answer again). */
export function wasAnsweredEarly(socket: Socket): boolean {
  return answeredEarly.has(socket);
}

/**
 * Answers 413 while the client is still sending, then reads and discards the rest of the body
 * (up to `maxDiscardBytes`; the request timeout bounds the time) before closing. Closing at once,
 * as Node does after a `Connection: close` answer, resets a connection with unread data: the
 * client's write fails (EPIPE/ECONNRESET) and many clients report that instead of the 413.
 * The answer is written to the socket directly because Node's own response would close it.
 */
export function answerBodyTooLarge(
  request: FastifyRequest,
  reply: FastifyReply,
  /** The 413 in the shape of the API the request was for (`toErrorAnswer`). */
  answer: Pick<ErrorAnswer, "body" | "headers">,
  /** Writes the request-log line: Fastify does not see this answer end, so it logs nothing itself. */
  logAnswer: () => void,
): void {
  const incoming = request.raw;
  const socket = incoming.socket;
  // An injected request (the app's IPC, tests) has no connection to keep open.
  if (!(socket instanceof net.Socket)) {
    void reply.status(413).headers(answer.headers).send(answer.body);
    return;
  }
  reply.hijack();
  const text = JSON.stringify(answer.body);
  const headers: Record<string, unknown> = {
    ...reply.getHeaders(),
    ...answer.headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    connection: "close",
  };
  const lines = Object.entries(headers).flatMap(([name, value]) =>
    value === undefined
      ? []
      : (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${String(one)}`),
  );
  answeredEarly.add(socket);
  socket.write(`HTTP/1.1 413 ${http.STATUS_CODES[413]}\r\n${lines.join("\r\n")}\r\n\r\n${text}`);
  logAnswer();
  let discarded = 0;
  incoming.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > maxDiscardBytes) socket.destroy();
  });
  incoming.once("end", () => socket.end());
  incoming.once("error", () => socket.destroy());
  incoming.resume();
}
