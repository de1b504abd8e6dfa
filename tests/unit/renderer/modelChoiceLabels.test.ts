import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { ModelSelect } from "../../../src-renderer/benchmarks/ModelSelect.js";
import { ChatToolbar } from "../../../src-renderer/chat/ChatToolbar.js";
import { modelChoiceLabels } from "../../../src-renderer/models/modelDisplayName.js";
import { renderWithStore } from "./renderWithStore.js";
import { modelRow } from "./fixtures.js";

const gguf = (quantization: string) => ({
  architecture: "llama",
  parameter_count: 8_000_000_000,
  quantization,
  context_length: 8192,
  expert_count: 0,
  name: "Meta Llama 3 8B Instruct",
});
// Two quantizations of one repository, and the Q8_0 once more in a second models folder.
const models = [
  modelRow({ id: "llama-3-8b-instruct.Q4_K_M", gguf: gguf("Q4_K_M") }),
  modelRow({ id: "llama-3-8b-instruct.Q8_0", gguf: gguf("Q8_0") }),
  modelRow({ id: "other/llama-3-8b-instruct.Q8_0", gguf: gguf("Q8_0") }),
  modelRow({ id: "qwen", gguf: { ...gguf("Q4_K_M"), name: "Qwen 2.5 7B" } }),
];

function optionTexts(html: string): string[] {
  return [...html.matchAll(/<option[^>]*>(.*?)<\/option>/g)].map((match) => match[1]!);
}

function render(children: ReturnType<typeof createElement>) {
  return renderWithStore(children, { models });
}

describe("model choices", () => {
  it("tells apart files of one model: the quantization, then the id where that is shared too", () => {
    expect([...modelChoiceLabels(models).values()]).toEqual([
      "Meta Llama 3 8B Instruct (Q4_K_M)",
      "Meta Llama 3 8B Instruct (Q8_0) · llama-3-8b-instruct.Q8_0",
      "Meta Llama 3 8B Instruct (Q8_0) · other/llama-3-8b-instruct.Q8_0",
      "Qwen 2.5 7B",
    ]);
  });

  it("lists no two alike in the chat's model menu (they were four entries of two names)", () => {
    const options = optionTexts(render(createElement(ChatToolbar)));
    const named = options.filter((text) => text.includes("Llama") || text.includes("Qwen"));
    expect(named).toHaveLength(4);
    expect(new Set(named).size).toBe(4);
  });

  it("lists no two alike in the benchmarks' model menu", () => {
    const options = optionTexts(render(createElement(ModelSelect, { value: "", onChange: () => {} })));
    expect(options).toHaveLength(4);
    expect(new Set(options).size).toBe(4);
  });
});
