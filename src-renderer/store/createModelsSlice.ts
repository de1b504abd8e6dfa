import type { ModelRow } from "../../src-shared/contracts/models.js";
import type { ModelSettings } from "../../src-shared/contracts/settings.js";
import { toErrorInfo, type ErrorInfo } from "./ErrorInfo.js";
import type { LoadStatus, SliceCreator } from "./PerchState.js";

export type ModelAction = "checking" | "saving" | "deleting" | "loading" | "unloading";
export type HeaderAction = "reload" | "rescan" | "check";

export interface ModelsSlice {
  models: ModelRow[];
  modelsDirs: string[];
  modelsStatus: LoadStatus;
  modelsError: ErrorInfo | null;
  modelBusy: Record<string, ModelAction>;
  headerBusy: HeaderAction | null;
  loadModels(): Promise<void>;
  reloadRuntime(): Promise<void>;
  rescanDisk(): Promise<void>;
  checkRemoteUpdates(): Promise<void>;
  checkUpdate(modelId: string): Promise<void>;
  /** Saves the complete settings; answers the error (with field paths) instead of throwing. */
  saveModelSettings(modelId: string, settings: ModelSettings): Promise<ErrorInfo | null>;
  deleteModel(modelId: string): Promise<void>;
  /** Loads the model with its saved settings; the rows (and the Server page) refresh after. */
  loadModel(modelId: string): Promise<void>;
  /** Unloads the model; a 409 (a request is using it) becomes an error toast with the reason. */
  unloadModel(modelId: string): Promise<void>;
}

export const createModelsSlice: SliceCreator<ModelsSlice> = (set, get, { client }) => {
  const setBusy = (modelId: string, action: ModelAction | null) => {
    const modelBusy = { ...get().modelBusy };
    if (action) modelBusy[modelId] = action;
    else delete modelBusy[modelId];
    set({ modelBusy });
  };
  const headerAction = async (action: HeaderAction, run: () => Promise<void>) => {
    set({ headerBusy: action });
    try {
      await run();
    } catch (error) {
      get().reportError(error);
    } finally {
      set({ headerBusy: null });
    }
  };
  return {
    models: [],
    modelsDirs: [],
    modelsStatus: "idle",
    modelsError: null,
    modelBusy: {},
    headerBusy: null,

    async loadModels() {
      if (get().modelsStatus === "idle") set({ modelsStatus: "loading" });
      try {
        const answer = await client.request("listModels");
        set({
          models: answer.models,
          modelsDirs: answer.models_dirs,
          modelsStatus: "ready",
          modelsError: null,
        });
        // The poll every page runs (the sidebar's "Connected" is this answer): the server answers,
        // so a chat still saying "not answering" (a restart, maybe shorter than this poll's 5 s)
        // drops the notice and reads its conversation again.
        void get().chatReconnected();
      } catch (error) {
        const info = toErrorInfo(error);
        if (info.code === "unauthorized") set({ apiKeyNeeded: true });
        set({ modelsStatus: "error", modelsError: info });
      }
    },

    reloadRuntime: () =>
      headerAction("reload", async () => {
        const answer = await client.request("reload");
        get().notify({
          kind: "success",
          key: "models.notice.reloaded",
          values: { total: answer.total, unloaded: answer.unloaded.length },
        });
        await get().loadModels();
      }),

    rescanDisk: () =>
      headerAction("rescan", async () => {
        const answer = await client.request("rescan");
        get().notify({
          kind: "success",
          key: "models.notice.rescanned",
          values: { total: answer.total, added: answer.added.length, missing: answer.missing.length },
        });
        await get().loadModels();
      }),

    checkRemoteUpdates: () =>
      headerAction("check", async () => {
        const answer = await client.request("checkModelUpdates");
        // Local models are part of the answer as `not_applicable`; the notice counts remote ones.
        const remote = answer.results.filter((result) => result.update_status !== "not_applicable");
        const available = remote.filter((result) => result.update_status === "update_available").length;
        // A check that could not reach its hub is no "no update": say so, with the first reason.
        const failed = remote.filter((result) => result.update_status === "error");
        if (failed.length > 0) {
          get().notify({
            kind: "error",
            key: "models.notice.checkFailed",
            values: { failed: failed.length, checked: remote.length, available },
            ...(failed[0]!.error ? { message: failed[0]!.error } : {}),
          });
        } else {
          get().notify({
            kind: "success",
            key: "models.notice.checked",
            values: { checked: remote.length, available },
          });
        }
        await get().loadModels();
      }),

    async checkUpdate(modelId) {
      setBusy(modelId, "checking");
      try {
        await client.request("checkModelUpdate", { params: { model_id: modelId } });
        await get().loadModels();
      } catch (error) {
        get().reportError(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async saveModelSettings(modelId, settings) {
      setBusy(modelId, "saving");
      try {
        await client.request("putModelSettings", { params: { model_id: modelId }, body: settings });
        await get().loadModels();
        get().notify({ kind: "success", key: "settings.saved" });
        return null;
      } catch (error) {
        return toErrorInfo(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async deleteModel(modelId) {
      setBusy(modelId, "deleting");
      try {
        await client.request("deleteModel", { params: { model_id: modelId } });
        get().notify({ kind: "success", key: "models.notice.deleted", values: { model: modelId } });
        await get().loadModels();
      } catch (error) {
        get().reportError(error);
      } finally {
        setBusy(modelId, null);
      }
    },

    async loadModel(modelId) {
      setBusy(modelId, "loading");
      try {
        await client.request("loadModel", { params: { model_id: modelId }, body: {} });
        get().notify({ kind: "success", key: "models.notice.loaded", values: { model: modelId } });
      } catch (error) {
        get().reportError(error);
      }
      // Refreshed either way: a failed load can still change what is in memory (room was made).
      await Promise.all([get().loadModels(), get().loadServer()]);
      setBusy(modelId, null);
    },

    async unloadModel(modelId) {
      setBusy(modelId, "unloading");
      try {
        await client.request("unloadModel", { params: { model_id: modelId } });
        await Promise.all([get().loadModels(), get().loadServer()]);
      } catch (error) {
        get().reportError(error);
      } finally {
        setBusy(modelId, null);
      }
    },
  };
};
