import http from "node:http";

/**
 * POSTs JSON on a fresh connection and hands back the response stream. Not `fetch`: its pooled
 * keep-alive connections met llama-server's idle close ("other side closed") between rounds.
 */
export function postJson(url: string, body: unknown): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      url,
      {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) },
      },
      resolve,
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** The whole response body as text. */
export async function readAll(response: http.IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of response) text += String(chunk);
  return text;
}
