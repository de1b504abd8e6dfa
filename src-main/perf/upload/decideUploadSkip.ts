import type { UploadSkipCode } from "../../../src-shared/contracts/performance.js";

export interface UploadSkip {
  code: UploadSkipCode;
  reason: string;
}

/**
 * Why a result must not go to the community site, or null when it may. External targets are
 * never uploaded (their hardware is unknown here); experimental settings make numbers
 * incomparable with everyone else's; without an endpoint there is nowhere to send to.
 */
export function decideUploadSkip(input: {
  targetKind: "local" | "external";
  experimentalFeatures: readonly string[];
  /** Other clients' requests during the run (they skewed its numbers). */
  otherRequests?: number;
  endpoint: string | null;
}): UploadSkip | null {
  if (input.targetKind === "external") {
    return {
      code: "external_target",
      reason: "The run measured an external endpoint; only local models on this machine are uploaded.",
    };
  }
  if (input.experimentalFeatures.length > 0) {
    return {
      code: "experimental_features",
      reason: `Experimental features were active (${input.experimentalFeatures.join(", ")}); results with them are kept locally only.`,
    };
  }
  if ((input.otherRequests ?? 0) > 0) {
    return {
      code: "concurrent_load",
      reason: `The model served ${input.otherRequests} other request(s) during the run, so its numbers read low; the result is kept locally only.`,
    };
  }
  if (!input.endpoint) {
    return { code: "no_endpoint", reason: "No community upload endpoint is configured in the settings." };
  }
  return null;
}
