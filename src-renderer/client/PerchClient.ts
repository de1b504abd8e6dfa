import type {
  RouteInput,
  RouteName,
  RouteOutput,
  StreamEvent,
  StreamName,
  StreamParams,
} from "../../src-shared/contracts/api.js";
import type { AppPreferences, AppPreferencesPatch } from "../../src-shared/contracts/appPreferences.js";
import type { PerchClientError } from "./PerchClientError.js";

/** Routes whose input has no required part can be called without an input. */
export type RouteArgs<N extends RouteName> =
  Record<string, never> extends RouteInput<N> ? [input?: RouteInput<N>] : [input: RouteInput<N>];

export interface StreamHandlers<E> {
  onEvent(event: E): void;
  onError?(error: PerchClientError): void;
  /** The server closed the stream (the run finished, or there was nothing to replay). */
  onEnd?(): void;
}

/**
 * The one client the UI talks to. It is derived from the route table in `src-shared` and has
 * two transports (HTTP in a browser, IPC in Electron); nothing above this file knows which.
 * Every failure rejects with a `PerchClientError` carrying the API's error code.
 */
export interface PerchClient {
  request<N extends RouteName>(name: N, ...args: RouteArgs<N>): Promise<RouteOutput<N>>;
  subscribe<S extends StreamName>(
    name: S,
    params: StreamParams<S>,
    handlers: StreamHandlers<StreamEvent<S>>,
  ): () => void;
  /** The desktop app's own preferences; absent when the dashboard runs in a browser. */
  readonly preferences?: {
    get(): Promise<AppPreferences>;
    set(patch: AppPreferencesPatch): Promise<AppPreferences>;
  };
}
