import { describe, expect, it } from "vitest";
import { toHubError } from "../../../src-main/catalog/downloads/toHubError.js";

/** What @huggingface/hub throws: a HubApiError with the status and the body's `error`. */
const hubApiError = (statusCode: number, message: string) =>
  Object.assign(new Error(`${message}. URL: https://huggingface.co/api/models/acme/x`), { statusCode });

describe("toHubError", () => {
  it("says a 401 for a repo the hub does not know may be a typo, not only a missing token", () => {
    const missing = toHubError(hubApiError(401, "Repository not found"), "acme/typo");
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain("check the name");
    expect(missing.message).toContain("HF_TOKEN");
    const gated = toHubError(hubApiError(403, "Access to model acme/gated is restricted"), "acme/gated");
    expect(gated.code).toBe("upstream_error");
    expect(gated.message).toContain("gated or private");
    expect(toHubError(hubApiError(404, "Entry not found"), "acme/x").code).toBe("not_found");
  });
});
