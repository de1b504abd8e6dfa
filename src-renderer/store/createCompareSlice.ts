import type { ChatMessage, ReplyStats } from "../../src-shared/contracts/chat.js";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { modelDisplayName } from "../models/modelDisplayName.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { SliceCreator } from "./PerchState.js";

/** One model's side of a comparison: its reply as it streams, then its measured speed. */
export interface CompareLane {
  modelId: string;
  /** The conversation the reply is saved in (each side is a normal conversation, to continue later). */
  conversationId: string | null;
  /** The running reply (to stop it), once the server took the prompt. */
  replyId: string | null;
  text: string;
  /** `failed`: the reply could not start, its stream broke, or it ended with `finish_reason: "error"`. */
  status: "running" | "completed" | "failed";
  /** How the saved reply ended (`cancelled` after Stop, `error` with `failure`...). */
  finishReason: ChatMessage["finish_reason"] | null;
  stats: ReplyStats | null;
  /** The request failed (the side never got a reply). */
  error: ErrorInfo | null;
  /** The reply itself failed (a model that would not load...): the saved message's error. */
  failure: ChatMessage["error"] | null;
}

export interface CompareSlice {
  compareOpen: boolean;
  /** `run` tells one comparison from the next (a late event of an older one is dropped). */
  comparison: { run: number; prompt: string; lanes: CompareLane[]; stopping: boolean } | null;
  toggleCompare(): void;
  /**
   * Sends the same prompt, with the open chat's system prompt, sampling and thinking, to each
   * model at once; each reply streams into its lane and ends with its time to first token and speed.
   */
  compareModels(prompt: string, modelIds: string[]): Promise<void>;
  /** Stops every side still generating (a side not started yet is stopped as soon as it starts). */
  stopComparison(): Promise<void>;
}

export const createCompareSlice: SliceCreator<CompareSlice> = (set, get, { client }) => {
  let closeStreams: (() => void)[] = [];
  let runs = 0;
  /** Changes one lane of the comparison `run`, unless a newer comparison replaced it. */
  const updateLane = (run: number, index: number, update: (lane: CompareLane) => Partial<CompareLane>) => {
    const current = get().comparison;
    if (!current || current.run !== run) return;
    const lanes = current.lanes.map((lane, at) => (at === index ? { ...lane, ...update(lane) } : lane));
    set({ comparison: { ...current, lanes } });
  };

  /** Asks the server to stop one reply; its stream's `finished` event (cancelled) ends the lane. */
  const cancel = async (replyId: string) => {
    try {
      await client.request("cancelReply", { params: { reply_id: replyId } });
    } catch {
      // The reply ended meanwhile (a 404): its finished event says how.
    }
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
        replyId: null,
        text: "",
        status: "running",
        finishReason: null,
        stats: null,
        error: null,
        failure: null,
      }));
      const run = ++runs;
      set({ comparison: { run, prompt, lanes, stopping: false } });
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
                    updateLane(run, index, (lane) => ({ text: lane.text + event.text }));
                  else if (event.type === "finished") {
                    updateLane(run, index, () => ({
                      // A reply that failed is saved as a message too: its reason is shown, not an empty "done".
                      status: event.message.finish_reason === "error" ? "failed" : "completed",
                      finishReason: event.message.finish_reason ?? null,
                      text: event.message.content,
                      stats: event.message.stats ?? null,
                      failure: event.message.error ?? null,
                    }));
                    resolve();
                  }
                },
                onError(error) {
                  updateLane(run, index, () => ({ status: "failed", error: toErrorInfo(error) }));
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
            updateLane(run, index, () => ({ conversationId: conversation.id }));
            const started = await client.request("startReply", {
              params: { conversation_id: conversation.id },
              body: { action: "send", content: prompt },
            });
            updateLane(run, index, () => ({ replyId: started.reply_id }));
            // Stop was pressed while this side was still starting.
            const current = get().comparison;
            if (current?.run === run && current.stopping) void cancel(started.reply_id);
            await follow(index, started.reply_id);
          } catch (error) {
            updateLane(run, index, () => ({ status: "failed", error: toErrorInfo(error) }));
          }
        }),
      );
      await get().loadConversations();
    },

    async stopComparison() {
      const current = get().comparison;
      if (!current || current.stopping) return;
      set({ comparison: { ...current, stopping: true } });
      await Promise.all(
        current.lanes
          .filter((lane) => lane.status === "running" && lane.replyId)
          .map((lane) => cancel(lane.replyId!)),
      );
    },
  };
};

function compareTitle(prompt: string, modelId: string, models: ModelRow[]): string {
  const model = models.find((entry) => entry.id === modelId);
  return `${prompt.slice(0, 60)} · ${model ? modelDisplayName(model) : modelId}`.slice(0, 200);
}
