import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { reportError } from "../../../src-main/cli/reportError.js";

describe("perch's error line", () => {
  it("names PERCH_API_KEY when a server wants a key the CLI did not send", () => {
    const stderr = new PassThrough();
    const code = reportError(
      "ps",
      new PerchError(
        "unauthorized",
        "Missing or invalid API key (Authorization: Bearer <key> or x-api-key).",
      ),
      stderr,
    );
    expect(code).toBe(1);
    expect(String(stderr.read())).toBe(
      "perch ps: Missing or invalid API key (Authorization: Bearer <key> or x-api-key). " +
        "The CLI sends the key in PERCH_API_KEY (else settings.json's api_key). (unauthorized)\n",
    );
  });
});
