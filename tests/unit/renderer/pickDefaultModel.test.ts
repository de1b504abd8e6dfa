import { describe, expect, it } from "vitest";
import { isHelperModel, pickDefaultModel } from "../../../src-renderer/models/pickDefaultModel.js";
import { modelRow } from "./fixtures.js";

const gguf = (architecture: string, name: string | null = null) => ({
  architecture,
  parameter_count: 1,
  quantization: "Q8_0",
  context_length: 2048,
  expert_count: 0,
  name,
});

describe("pickDefaultModel", () => {
  it("skips a draft model that sorts first", () => {
    const models = [
      modelRow({ id: "perch-test-draft-random-weights.Q8_0", gguf: gguf("llama") }),
      modelRow({ id: "perch-test-model-random-weights.Q8_0", gguf: gguf("llama") }),
    ];
    expect(pickDefaultModel(models)?.id).toBe("perch-test-model-random-weights.Q8_0");
  });

  it("skips a model another model names as its draft, and embedding models", () => {
    const target = modelRow({
      id: "qwen/Qwen3-8B",
      gguf: gguf("qwen3"),
      settings: { speculative: { mode: "draft", draftModel: "qwen/Qwen3-0.6B" } },
    });
    const models = [
      modelRow({ id: "nomic/nomic-text-v1.5", gguf: gguf("nomic-bert") }),
      modelRow({ id: "qwen/Qwen3-0.6B", gguf: gguf("qwen3") }),
      target,
    ];
    expect(models.map((model) => isHelperModel(model, models))).toEqual([true, true, false]);
    expect(pickDefaultModel(models)?.id).toBe("qwen/Qwen3-8B");
  });

  it("prefers a loaded model, and falls back to a helper when nothing else is there", () => {
    const loaded = modelRow({ id: "b-model", load: { ...modelRow().load, state: "loaded" } });
    expect(pickDefaultModel([modelRow({ id: "a-model" }), loaded])?.id).toBe("b-model");
    const onlyDraft = [modelRow({ id: "x-draft" })];
    expect(pickDefaultModel(onlyDraft)?.id).toBe("x-draft");
    expect(pickDefaultModel([modelRow({ id: "gone", missing: true })])).toBeUndefined();
  });
});
