import { PassThrough, type Readable } from "node:stream";
import zlib from "node:zlib";
import type { FastifyRequest } from "fastify";
import { PerchError } from "../base/PerchError.js";

const decoders: Record<string, () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress> = {
  gzip: () => zlib.createGunzip(),
  "x-gzip": () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The request body as sent, decompressed when `Content-Encoding` says gzip, deflate or br (some
 * proxies compress what clients send). Any other coding answers 415 naming it, never a body read
 * as the wrong bytes. The body limit counts the decompressed bytes (a small gzip cannot expand
 * past it); `receivedEncodedLength` lets Fastify check `Content-Length` against the bytes sent.
 */
export function decodeContentEncoding(request: FastifyRequest, payload: Readable): Readable {
  const header = request.headers["content-encoding"];
  if (!header) return payload;
  const codings = header
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  if (codings.length === 0) return payload;
  const coding = codings[0]!;
  const decoder = codings.length === 1 ? decoders[coding] : undefined;
  if (!decoder) {
    throw new PerchError(
      "unsupported_media_type",
      `Content-Encoding '${header}' is not supported: send the body uncompressed, or as gzip, deflate or br.`,
      { details: { content_encoding: header } },
    );
  }
  const decompress = decoder();
  const decoded = new PassThrough() as PassThrough & { receivedEncodedLength?: number };
  decoded.receivedEncodedLength = 0;
  payload.on("data", (chunk: Buffer) => {
    decoded.receivedEncodedLength! += chunk.length;
  });
  payload.on("error", (error) => decoded.destroy(error));
  decompress.on("error", (error) =>
    decoded.destroy(
      new PerchError("invalid_request", `The request body is not valid ${coding} data (${error.message}).`),
    ),
  );
  payload.pipe(decompress).pipe(decoded);
  return decoded;
}
