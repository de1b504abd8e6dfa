import type { RouteName, StreamName } from "../../src-shared/contracts/api.js";
import type { ValidatedRequest } from "../../src-shared/contracts/routeInput.js";
import type { AppPreferences, AppPreferencesPatch } from "../../src-shared/contracts/appPreferences.js";
import type { PerchClientError } from "./PerchClientError.js";

export interface StreamSink {
  event(data: unknown): void;
  error(error: PerchClientError): void;
  end(): void;
}

/**
 * How requests travel (fetch or the Electron bridge). Validation and response parsing are done
 * once, in `createClient`, for both; a transport rejects with `PerchClientError` on failure.
 */
export interface Transport {
  send(name: RouteName, input: unknown, request: ValidatedRequest): Promise<unknown>;
  open(name: StreamName, params: unknown, path: string, sink: StreamSink): () => void;
  preferences?: {
    get(): Promise<AppPreferences>;
    set(patch: AppPreferencesPatch): Promise<AppPreferences>;
  };
}
