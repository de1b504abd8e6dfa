import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../../../src-shared/contracts/catalog.js";
import { PerchError } from "../../../src-main/base/PerchError.js";
import { resolveModelName } from "../../../src-main/cli/client/resolveModelName.js";
import type { AdminClient } from "../../../src-main/cli/client/AdminClient.js";

const hub = (repo: string, file: string): CatalogEntry => {
  const id = `${repo}/${file.replace(/\.gguf$/, "")}`;
  return {
    id,
    path: `/models/${id}.gguf`,
    files: [`/models/${id}.gguf`],
    models_dir: "/models",
    missing: false,
    source: "hf",
    repo,
    remote_path: file,
    revision: null,
    file_oid: null,
    discovered_at: "2026-01-01T00:00:00.000Z",
    downloaded_at: null,
    updated_at: null,
    last_checked_at: null,
    remote_revision: null,
    update_status: "not_applicable",
    update_error: null,
    size_bytes: 1,
    mtime_ms: 1,
    gguf: null,
    gguf_error: null,
  };
};

/** The admin API as the CLI sees it: GET /admin/api/models/{id} knows ids only, as the server's does. */
function fakeAdmin(models: CatalogEntry[]): Pick<AdminClient, "send" | "request"> {
  return {
    send: async (_method: string, url: string) => {
      const id = decodeURIComponent(url.replace("/admin/api/models/", ""));
      const found = models.find((model) => model.id === id);
      if (!found) throw new PerchError("model_not_found", `Model '${id}' not found.`);
      return found;
    },
    request: (async () => ({ models, models_dirs: ["/models"] })) as unknown as AdminClient["request"],
  };
}

describe("the model names perch run, load and unload take", () => {
  const admin = fakeAdmin([
    hub("acme/tiny-GGUF", "tiny-Q8_0.gguf"),
    hub("acme/tiny-GGUF", "tiny-Q4_K_M.gguf"),
  ]);

  it("keeps a name the server knows", async () => {
    expect(await resolveModelName(admin, "acme/tiny-GGUF/tiny-Q8_0")).toBe("acme/tiny-GGUF/tiny-Q8_0");
  });

  it("takes Ollama's name (what /api/tags lists) and what perch pull was given", async () => {
    expect(await resolveModelName(admin, "hf.co/acme/tiny-GGUF:Q8_0")).toBe("acme/tiny-GGUF/tiny-Q8_0");
    expect(await resolveModelName(admin, "acme/tiny-GGUF:Q8_0")).toBe("acme/tiny-GGUF/tiny-Q8_0");
    expect(await resolveModelName(admin, "hf.co/acme/tiny-gguf")).toBe("acme/tiny-GGUF/tiny-Q4_K_M");
  });

  it("answers the server's model_not_found for a name nothing has", async () => {
    await expect(resolveModelName(admin, "acme/tiny-GGUF:Q2_K")).rejects.toThrow(
      "Model 'acme/tiny-GGUF:Q2_K' not found.",
    );
  });
});
