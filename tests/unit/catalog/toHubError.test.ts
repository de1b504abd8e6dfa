import { describe, expect, it } from "vitest";
import { toHubError } from "../../../src-main/catalog/downloads/toHubError.js";

/** What @huggingface/hub throws: a HubApiError with the status and the body's `error`. */
const hubApiError = (statusCode: number, message: string) =>
  Object.assign(new Error(`${message}. URL: https://huggingface.co/api/models/acme/x`), { statusCode });

describe("toHubError", () => {
  it("says a 401 for a repo the hub does not know may be a typo, not only a missing token", () => {
    const missing = toHubError(hubApiError(401, "Repository not found"), "acme/typo", "anonymous");
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain("check the name");
    expect(missing.message).toContain("HF_TOKEN");
    const gated = toHubError(
      hubApiError(403, "Access to model acme/gated is restricted"),
      "acme/gated",
      "anonymous",
    );
    expect(gated.code).toBe("upstream_error");
    expect(gated.message).toContain("gated or private");
    expect(toHubError(hubApiError(404, "Entry not found"), "acme/x", "anonymous").code).toBe("not_found");
  });

  it("does not tell a user who sent a token to set one, nor a ModelScope user to set HF_TOKEN", () => {
    const withToken = toHubError(
      hubApiError(403, "Access to model acme/gated is restricted"),
      "acme/gated",
      "token",
    );
    expect(withToken.message).toContain("token in use");
    expect(withToken.message).not.toMatch(/set HF_TOKEN/);
    const typoWithToken = toHubError(hubApiError(401, "Repository not found"), "acme/typo", "token");
    expect(typoWithToken.code).toBe("not_found");
    expect(typoWithToken.message).toContain("check the name");
    expect(typoWithToken.message).not.toMatch(/set HF_TOKEN/);
    const modelScope = toHubError({ statusCode: 403, message: "Forbidden" }, "ModelScope acme/x", "none");
    expect(modelScope.message).not.toContain("HF_TOKEN");
    expect(modelScope.message).toContain("public repos only");
  });
});
