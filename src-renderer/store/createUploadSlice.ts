import type { UploadPreviewResponse } from "../../src-shared/contracts/performance.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { SliceCreator } from "./PerchState.js";

export interface UploadPreview {
  modelId: string | null;
  status: "idle" | "loading" | "ready" | "error";
  payload: UploadPreviewResponse["payload"];
  skipReason: string | null;
  /** Why, as a stable code the UI translates (`no_endpoint`, `experimental_features`, `external_target`). */
  skipCode: string | null;
  error: ErrorInfo | null;
}

export interface UploadSlice {
  /** The remembered "Upload to community benchmarks" choice; false until the user picks. */
  uploadChoice: boolean;
  uploadPreview: UploadPreview;
  loadUploadChoice(): Promise<void>;
  setUploadChoice(upload: boolean): Promise<void>;
  loadUploadPreview(modelId: string): Promise<void>;
}

export const uploadChoiceStorageKey = "perch.uploadToCommunity";

/** The community upload: the remembered choice and a preview of exactly what would be sent. */
export const createUploadSlice: SliceCreator<UploadSlice> = (set, get, { client, storage }) => ({
  uploadChoice: false,
  uploadPreview: {
    modelId: null,
    status: "idle",
    payload: null,
    skipReason: null,
    skipCode: null,
    error: null,
  },

  async loadUploadChoice() {
    const stored = storage.getItem(uploadChoiceStorageKey);
    if (stored !== null) set({ uploadChoice: stored === "true" });
    try {
      const answer = await client.request("getSettings");
      set({ uploadChoice: answer.settings.community_upload_enabled });
    } catch {
      // The settings route is optional for this choice: the local copy stands.
    }
  },

  async setUploadChoice(upload) {
    set({ uploadChoice: upload });
    storage.setItem(uploadChoiceStorageKey, String(upload));
    try {
      await client.request("putSettings", { body: { community_upload_enabled: upload } });
    } catch {
      // Remembered locally; the server copy catches up the next time it is reachable.
    }
  },

  async loadUploadPreview(modelId) {
    set({
      uploadPreview: {
        modelId,
        status: "loading",
        payload: null,
        skipReason: null,
        skipCode: null,
        error: null,
      },
    });
    try {
      const answer = await client.request("uploadPreview", { query: { model_id: modelId } });
      if (get().uploadPreview.modelId !== modelId) return;
      set({
        uploadPreview: {
          modelId,
          status: "ready",
          payload: answer.payload,
          skipReason: answer.skip?.reason ?? null,
          skipCode: answer.skip?.code ?? null,
          error: null,
        },
      });
    } catch (error) {
      set({
        uploadPreview: {
          modelId,
          status: "error",
          payload: null,
          skipReason: null,
          skipCode: null,
          error: toErrorInfo(error),
        },
      });
    }
  },
});
