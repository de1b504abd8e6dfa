import {
  apiRoutes,
  apiStreams,
  type RouteName,
  type RouteOutput,
  type StreamEvent,
  type StreamName,
  type StreamParams,
} from "../../src-shared/contracts/api.js";
import { validateRouteInput, validateStreamInput } from "../../src-shared/contracts/routeInput.js";
import type { PerchClient, RouteArgs, StreamHandlers } from "./PerchClient.js";
import { PerchClientError, toClientError } from "./PerchClientError.js";
import type { Transport } from "./Transport.js";
import { fieldIssueOf } from "../i18n/issueMessage.js";

/** The typed client over a transport: validates input, sends, parses the answer. */
export function createClient(transport: Transport): PerchClient {
  return {
    async request<N extends RouteName>(name: N, ...args: RouteArgs<N>): Promise<RouteOutput<N>> {
      const input = args[0] ?? {};
      const validated = validateRouteInput(name, input);
      if (!validated.ok) {
        const first = validated.failure.issues[0];
        throw new PerchClientError("invalid_request", validated.message, {
          status: 400,
          param: first && first.path.length > 0 ? first.path.map(String).join(".") : null,
          // The issue's code and limits travel too: the form says them in the page's language.
          details: validated.failure.issues.map((issue) => ({
            ...fieldIssueOf(issue),
            path: issue.path.map(String),
            message: issue.message,
          })),
        });
      }
      let data: unknown;
      try {
        data = await transport.send(name, input, validated.value);
      } catch (error) {
        throw toClientError(error);
      }
      const parsed = apiRoutes[name].response.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new PerchClientError(
          "invalid_response",
          `Unexpected answer from ${name}: ${issue?.path.join(".") ?? ""} ${issue?.message ?? ""}`.trim(),
        );
      }
      return parsed.data as RouteOutput<N>;
    },

    subscribe<S extends StreamName>(
      name: S,
      params: StreamParams<S>,
      handlers: StreamHandlers<StreamEvent<S>>,
    ): () => void {
      const validated = validateStreamInput(name, params);
      if (!validated.ok) {
        handlers.onError?.(new PerchClientError("invalid_request", validated.message, { status: 400 }));
        return () => {};
      }
      let closed = false;
      const close = transport.open(name, params, validated.path, {
        event(data) {
          if (closed) return;
          const parsed = apiStreams[name].event.safeParse(data);
          // An event the contract does not know is skipped, not fatal: the run goes on.
          if (parsed.success) handlers.onEvent(parsed.data as StreamEvent<S>);
        },
        error(error) {
          if (!closed) handlers.onError?.(error);
        },
        end() {
          if (!closed) handlers.onEnd?.();
        },
      });
      return () => {
        closed = true;
        close();
      };
    },

    preferences: transport.preferences,
  };
}
