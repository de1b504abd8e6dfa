import { pathToFileURL } from "node:url";
import { sweep, type Row } from "./loadSweep.js";

/** Streams one completion over HTTP; TTFT is measured by the client, as an app would see it. */
export async function viaHttp(url: string, model: string, prompt: string, maxTokens: number) {
  const sent = performance.now();
  const response = await fetch(`${url}/v1/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model,
      prompt,
      max_tokens: maxTokens,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
    }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let first: number | undefined;
  let tokens = 0;
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let index: number;
    while ((index = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, index).replace(/^data: /, "");
      buffer = buffer.slice(index + 2);
      if (event === "[DONE]") continue;
      const chunk = JSON.parse(event) as {
        choices: { text: string }[];
        usage?: { completion_tokens: number };
      };
      if (chunk.choices[0]?.text) first ??= performance.now();
      if (chunk.usage) tokens = chunk.usage.completion_tokens;
    }
  }
  const done = performance.now();
  return { ttft: (first ?? done) - sent, tokens };
}

export interface HttpSweepArgs {
  url: string;
  model: string;
  level: number;
  perClient: number;
  maxTokens: number;
  salt: string;
}

/** The HTTP sweep, as an app would run it: from its own process (see `runHttpSweepInChild`). */
export function httpSweep(args: HttpSweepArgs): Promise<Row> {
  return sweep(
    args.level,
    "http",
    (prompt) => viaHttp(args.url, args.model, prompt, args.maxTokens),
    args.salt,
    args.perClient,
  );
}

// `tsx bench/httpLoadClient.ts '<json args>'` prints the row as JSON.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const row = await httpSweep(JSON.parse(process.argv[2] ?? "{}") as HttpSweepArgs);
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
