/** The three inference endpoints, called the way an SDK would, streaming or not. */
export type Endpoint = "chat" | "completions" | "messages";

export const endpoints: readonly Endpoint[] = ["chat", "completions", "messages"];

const paths: Record<Endpoint, string> = {
  chat: "/v1/chat/completions",
  completions: "/v1/completions",
  messages: "/v1/messages",
};

export interface InferenceOptions {
  prompt: string;
  maxTokens: number;
  stream: boolean;
  /** Extra body fields (e.g. `response_format`, `temperature`). */
  extra?: Record<string, unknown>;
}

export function inferenceBody(
  endpoint: Endpoint,
  model: string,
  options: InferenceOptions,
): Record<string, unknown> {
  const common = { model, max_tokens: options.maxTokens, stream: options.stream, ...options.extra };
  return endpoint === "completions"
    ? { ...common, prompt: options.prompt }
    : { ...common, messages: [{ role: "user", content: options.prompt }] };
}

export interface InferenceOutcome {
  status: number;
  /** `error.code` of a refusal. */
  code?: string;
  /** The `Retry-After` header of a refusal, when it had one. */
  retryAfter?: string;
  /** Stream events received (0 for a non-streaming answer). */
  events: number;
  /** Whether the answer was complete: a JSON completion, or a stream that reached its end marker. */
  complete: boolean;
  /** Set when the client aborted (or the fetch failed): the error's name. */
  aborted?: string;
}

/**
 * One inference request; resolves (never rejects) with what happened. `onEvent` sees every
 * stream event as it arrives, so a test can abort mid-stream.
 */
export async function callInference(
  baseUrl: string,
  endpoint: Endpoint,
  body: Record<string, unknown>,
  options: { signal?: AbortSignal; onEvent?: (count: number) => void } = {},
): Promise<InferenceOutcome> {
  let events = 0;
  try {
    const response = await fetch(`${baseUrl}${paths[endpoint]}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: options.signal,
    });
    const type = response.headers.get("content-type") ?? "";
    if (!type.startsWith("text/event-stream")) {
      const answer = (await response.json()) as {
        error?: { code?: string };
        choices?: unknown[];
        content?: unknown[];
      };
      return {
        status: response.status,
        code: answer.error?.code,
        ...(response.headers.has("retry-after") ? { retryAfter: response.headers.get("retry-after")! } : {}),
        events: 0,
        complete: response.ok && (Array.isArray(answer.choices) || Array.isArray(answer.content)),
      };
    }
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    let complete = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
      let end: number;
      while ((end = buffered.indexOf("\n\n")) >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        events += 1;
        if (event.includes("data: [DONE]") || event.includes("event: message_stop")) complete = true;
        options.onEvent?.(events);
      }
    }
    return { status: response.status, events, complete };
  } catch (error) {
    return { status: 0, events, complete: false, aborted: (error as Error).name };
  }
}

/** A JSON-schema constraint the model cannot satisfy early: the answer runs until `max_tokens`. */
export const neverEndingFormat = {
  response_format: {
    type: "json_schema",
    json_schema: {
      name: "numbers",
      schema: {
        type: "object",
        properties: { numbers: { type: "array", items: { type: "integer" }, minItems: 1500 } },
        required: ["numbers"],
      },
    },
  },
};
