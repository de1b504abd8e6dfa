import type { ConversationPatch } from "../../src-shared/contracts/chat.js";
import { usePerch } from "../store/usePerch.js";

const noSampling = {};

/** The settings the next reply uses: the open conversation's, else the new chat's draft. */
export function useChatSettings(): Required<Omit<ConversationPatch, "title">> {
  const conversation = usePerch((state) => state.conversation);
  const draft = usePerch((state) => state.chatDraft);
  const source = conversation ?? draft;
  return {
    model_id: source.model_id ?? null,
    system_prompt: source.system_prompt ?? "",
    sampling: source.sampling ?? noSampling,
    thinking: source.thinking ?? null,
    json_schema: source.json_schema ?? null,
    tools: source.tools ?? null,
    tool_choice: source.tool_choice ?? "auto",
  };
}
