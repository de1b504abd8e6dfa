import type { ReplyStats } from "../../src-shared/contracts/chat.js";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { modelDisplayName } from "../models/modelDisplayName.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { SliceCreator } from "./PerchState.js";

/** One model's side of a comparison: its reply as it streams, then its measured speed. */
export interface CompareLane {
  modelId: string;
  /** The conversation the reply is saved in (each side is a normal conversation, to continue later). */
  conversationId: string | null;
  text: string;
  status: "running" | "completed" | "failed";
  stats: ReplyStats | null;
  error: ErrorInfo | null;
}

export interface CompareSlice {
  compareOpen: boolean;
  comparison: { prompt: string; lanes: CompareLane[] } | null;
  toggleCompare(): void;
  /**
   * Sends the same prompt, with the open chat's system prompt, sampling and thinking, to each
   * model at once; each reply streams into its lane and ends with its time to first token and speed.
   */
  compareModels(prompt: string, modelIds: string[]): Promise<void>;
}

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get, { client }) => {
  let closeStreams: (() => void)[] = [];
  /** Changes one lane of the comparison `run`, unless a newer comparison replaced it. */
  const updateLane = (
    run: CompareSlice["comparison"],
    index: number,
    update: (lane: CompareLane) => Partial<CompareLane>,
  ) => {
    const current = get().comparison;
    if (!current || current !== run) return;
    const lanes = current.lanes.map((lane, at) => (at === index ? { ...lane, ...update(lane) } : lane));
    const next = { ...current, lanes };
    set({ comparison: next });
    return next;
  };

  return {
    compareOpen: false,
    comparison: null,
    toggleCompare: () => set({ compareOpen: !get().compareOpen }),

    async compareModels(prompt, modelIds) {
      for (const close of closeStreams) close();
      closeStreams = [];
      const lanes = modelIds.map<CompareLane>((modelId) => ({
        modelId,
        conversationId: null,
        text: "",
        status: "running",
        stats: null,
        error: null,
      }));
      let run: CompareSlice["comparison"] = { prompt, lanes };
      set({ comparison: run });
      const source = get().conversation ?? get().chatDraft;
      const settings = {
        system_prompt: source.system_prompt,
        sampling: source.sampling,
        thinking: source.thinking,
      };
      const follow = (index: number, replyId: string) =>
        new Promise<void>((resolve) => {
          closeStreams.push(
            client.subscribe(
              "chatReply",
              { reply_id: replyId },
              {
                onEvent(event) {
                  if (event.type === "text")
                    run = updateLane(run, index, (lane) => ({ text: lane.text + event.text })) ?? run;
                  else if (event.type === "finished") {
                    run =
                      updateLane(run, index, () => ({
                        status: "completed",
                        text: event.message.content,
                        stats: event.message.stats ?? null,
                      })) ?? run;
                    resolve();
                  }
                },
                onError(error) {
                  run =
                    updateLane(run, index, () => ({ status: "failed", error: toErrorInfo(error) })) ?? run;
                  resolve();
                },
                onEnd: () => resolve(),
              },
            ),
          );
        });
      await Promise.all(
        modelIds.map(async (modelId, index) => {
          try {
            const conversation = await client.request("createConversation", {
              // Both sides ask the same: the title says whose side this one is.
              body: { ...settings, model_id: modelId, title: compareTitle(prompt, modelId, get().models) },
            });
            run = updateLane(run, index, () => ({ conversationId: conversation.id })) ?? run;
            const started = await client.request("startReply", {
              params: { conversation_id: conversation.id },
              body: { action: "send", content: prompt },
            });
            await follow(index, started.reply_id);
          } catch (error) {
            run = updateLane(run, index, () => ({ status: "failed", error: toErrorInfo(error) })) ?? run;
          }
        }),
      );
      await get().loadConversations();
    },
  };
};

function compareTitle(prompt: string, modelId: string, models: ModelRow[]): string {
  const model = models.find((entry) => entry.id === modelId);
  return `${prompt.slice(0, 60)} · ${model ? modelDisplayName(model) : modelId}`.slice(0, 200);
}
