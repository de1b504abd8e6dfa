import { describe, expect, it } from "vitest";
import { modelSettingsAppliesAt, modelSettingsFieldClasses } from "../../../src-shared/contracts/settings.js";
import { LoadedModel } from "../../../src-main/engine/LoadedModel.js";

const loaded = () =>
  new LoadedModel({
    resolved: {
      id: "m",
      path: "/m.gguf",
      settings: {
        context_size: 4096,
        max_concurrent_requests: 4,
        chat_format: "qwen",
        sampling: { temperature: 0.7 },
        max_queue: 10,
      },
    },
    // The settings logic never touches the bindings.
    llama: {} as never,
    model: {} as never,
    threads: 1,
  });

describe("LoadedModel.applySettings", () => {
  it("applies per-request fields at once and keeps what shaped the context", () => {
    const model = loaded();
    model.applySettings({
      context_size: 1024,
      max_concurrent_requests: 1,
      chat_format: "chatML",
      sampling: { temperature: 0 },
      ttl_seconds: 60,
    });
    // max_queue, absent from the new settings, is back to its default (unset).
    expect(model.settings).toEqual({
      context_size: 4096,
      max_concurrent_requests: 4,
      chat_format: "qwen",
      sampling: { temperature: 0 },
      ttl_seconds: 60,
    });
  });

  it("classifies every settings field", () => {
    expect(Object.keys(modelSettingsAppliesAt).sort()).toEqual(Object.keys(modelSettingsFieldClasses).sort());
  });
});
