import { describe, expect, it } from "vitest";
import { PerchError } from "../../../src-main/base/PerchError.js";
import type { AdminClient } from "../../../src-main/cli/client/AdminClient.js";
import { resolveModelName } from "../../../src-main/cli/client/resolveModelName.js";

/** GET /admin/api/models/{name} as the server answers it: the id behind an id or an Ollama name. */
const known: Record<string, string> = {
  "acme/tiny-GGUF/tiny-Q8_0": "acme/tiny-GGUF/tiny-Q8_0",
  "hf.co/acme/tiny-GGUF:Q8_0": "acme/tiny-GGUF/tiny-Q8_0",
};
const asked: string[] = [];
const admin = {
  request: async (_route: string, input: { params: { model_id: string } }) => {
    asked.push(input.params.model_id);
    const id = known[input.params.model_id];
    if (!id) throw new PerchError("model_not_found", `Model '${input.params.model_id}' not found.`);
    return { id };
  },
} as unknown as Pick<AdminClient, "request">;

describe("the model names perch run, load and unload take", () => {
  it("are the server's (ids, aliases, Ollama's hf.co/owner/repo:QUANT), answered as the id", async () => {
    expect(await resolveModelName(admin, "acme/tiny-GGUF/tiny-Q8_0")).toBe("acme/tiny-GGUF/tiny-Q8_0");
    expect(await resolveModelName(admin, "hf.co/acme/tiny-GGUF:Q8_0")).toBe("acme/tiny-GGUF/tiny-Q8_0");
  });

  it("and what perch pull was given: owner/repo:QUANT", async () => {
    expect(await resolveModelName(admin, "acme/tiny-GGUF:Q8_0")).toBe("acme/tiny-GGUF/tiny-Q8_0");
  });

  it("an unknown name keeps the server's model_not_found for the name given", async () => {
    await expect(resolveModelName(admin, "acme/tiny-GGUF:Q2_K")).rejects.toThrow(
      "Model 'acme/tiny-GGUF:Q2_K' not found.",
    );
    asked.length = 0;
    await expect(resolveModelName(admin, "nothing-here")).rejects.toThrow("Model 'nothing-here' not found.");
    expect(asked).toEqual(["nothing-here"]);
  });
});
