import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { answeredPath } from "./toErrorAnswer.js";

const pathBySocket = new WeakMap<Socket, string>();

/**
 * Remembers, per connection, the path of the request it is receiving: Node's cut of a request
 * whose body arrives too slowly reaches the server with the socket only, and the answer's shape
 * depends on the API the request was for (`toErrorAnswer`).
 */
export function trackSocketRequestPaths(app: FastifyInstance): void {
  app.addHook("onRequest", (request, _reply, done) => {
    pathBySocket.set(request.raw.socket, answeredPath(request));
    done();
  });
  app.addHook("onResponse", (request, _reply, done) => {
    pathBySocket.delete(request.raw.socket);
    done();
  });
}

/** The path of the request `socket` is receiving, when its headers have arrived. */
export function requestPathOn(socket: Socket): string | undefined {
  return pathBySocket.get(socket);
}
