import { describe, expect, it } from "vitest";
import { globalSettingsResponseSchema } from "../../../src-shared/contracts/settings.js";
import { clientEndpoints, serverOrigin } from "../../../src-renderer/server/clientEndpoints.js";

const settings = (host: string, port: number, effective: { host: string | null; port: number | null }) =>
  globalSettingsResponseSchema.parse({
    settings: {
      host,
      port,
      models_dirs: [],
      api_key_set: false,
      allow_remote_admin: false,
      hf_endpoint: null,
      modelscope_endpoint: null,
      community_upload_url: null,
      community_upload_enabled: false,
      default_ttl_seconds: 900,
      memory_budget_bytes: null,
      python_path: null,
      hf_token_set: false,
      threads: null,
    },
    effective: {
      ...effective,
      models_dirs: [],
      hf_endpoint: "https://huggingface.co",
      modelscope_endpoint: "https://www.modelscope.cn",
      hf_token_source: null,
      threads: null,
      default_threads: 1,
    },
    restart_required: [],
  });
const appPage = { protocol: "file:", hostname: "", port: "" };

describe("client endpoints on the server page", () => {
  it("gives each client the base URL it wants", () => {
    expect(clientEndpoints("http://127.0.0.1:11436")).toEqual([
      { api: "openai", url: "http://127.0.0.1:11436/v1" },
      { api: "anthropic", url: "http://127.0.0.1:11436" },
      { api: "ollama", url: "http://127.0.0.1:11436" },
    ]);
  });

  it("in the app, uses where the server listens now over the saved port", () => {
    // Saved 11435, started with --port 11436: clients must use 11436.
    expect(serverOrigin(appPage, settings("127.0.0.1", 11435, { host: "127.0.0.1", port: 11436 }))).toEqual({
      host: "127.0.0.1",
      port: 11436,
      origin: "http://127.0.0.1:11436",
    });
    expect(serverOrigin(appPage, settings("127.0.0.1", 11435, { host: null, port: null })).origin).toBe(
      "http://127.0.0.1:11435",
    );
  });

  it("reaches a wildcard bind through loopback and brackets IPv6 hosts", () => {
    expect(serverOrigin(appPage, settings("0.0.0.0", 8080, { host: "0.0.0.0", port: 8080 })).origin).toBe(
      "http://127.0.0.1:8080",
    );
    expect(serverOrigin(appPage, settings("::1", 8080, { host: "::1", port: 8080 })).origin).toBe(
      "http://[::1]:8080",
    );
  });

  it("in a browser, uses the address the page was served from", () => {
    const page = { protocol: "http:", hostname: "192.168.1.20", port: "9000" };
    expect(serverOrigin(page, settings("0.0.0.0", 11435, { host: "0.0.0.0", port: 9000 })).origin).toBe(
      "http://192.168.1.20:9000",
    );
  });
});
