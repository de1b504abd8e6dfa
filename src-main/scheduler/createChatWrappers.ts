import {
  chatWrappers,
  QwenChatWrapper,
  resolveChatWrapper,
  SeedChatWrapper,
  type ChatWrapper,
  type LlamaModel,
} from "node-llama-cpp";
import type { ChatFormat } from "../../src-shared/contracts/settings.js";

/** A model's chat format, and the same format with thinking switched off. */
export interface ChatWrappers {
  default: ChatWrapper;
  /**
   * For `thinking: false`. Formats that have an off switch use it (Qwen: an empty
   * `<think></think>` in the prompt, as its template does for `enable_thinking=false`; Seed: a
   * zero thinking budget); others are the default format, and the request gets a zero thought
   * budget instead (the segment closes after its first token).
   */
  noThinking: ChatWrapper;
}

/**
 * `format` unset or `auto` follows the GGUF's chat template (node-llama-cpp recognises the
 * common ones); a name forces that format.
 */
export function createChatWrappers(model: LlamaModel, format: ChatFormat | undefined): ChatWrappers {
  const base =
    format === undefined || format === "auto" ? resolveChatWrapper(model) : createChatWrapper(format);
  if (base instanceof QwenChatWrapper) {
    const noThinking = new QwenChatWrapper({
      variation: base.variation,
      keepOnlyLastThought: base.keepOnlyLastThought,
      thoughts: "discourage",
    });
    return { default: base, noThinking };
  }
  if (base instanceof SeedChatWrapper)
    return { default: base, noThinking: new SeedChatWrapper({ thinkingBudget: 0 }) };
  return { default: base, noThinking: base };
}

function createChatWrapper(format: Exclude<ChatFormat, "auto">): ChatWrapper {
  if (format === "qwen3.5") return new QwenChatWrapper({ variation: "3.5" });
  return new chatWrappers[format]();
}
