import { describe, expect, it } from "vitest";
import { PerchClientError } from "../../../src-renderer/client/PerchClientError.js";
import type { ModelRow } from "../../../src-shared/contracts/models.js";
import { modelRow } from "./fixtures.js";
import { storeWith } from "./fakeClient.js";

const id = "perch-test/perch-test-model-Q8_0";
const loadState = (state: ModelRow["load"]["state"]) => ({ ...modelRow().load, state });

describe("model rows: Load and Unload", () => {
  it("loads a model: busy while the request runs, then the rows and the Server page refresh", async () => {
    let state: ModelRow["load"]["state"] = "unloaded";
    let release: () => void = () => {};
    const { store, calls } = storeWith({
      listModels: () => ({ models: [modelRow({ load: loadState(state) })], models_dirs: [] }),
      loadModel: () =>
        new Promise((resolve) => {
          release = () => {
            state = "loaded";
            resolve({ model_id: id, loaded: true, settings: {} });
          };
        }),
    });
    await store.getState().loadModels();
    const loading = store.getState().loadModel(id);
    expect(store.getState().modelBusy[id]).toBe("loading");
    release();
    await loading;
    expect(calls.find((call) => call.name === "loadModel")?.input).toEqual({
      params: { model_id: id },
      body: {},
    });
    expect(calls.map((call) => call.name)).toEqual(
      expect.arrayContaining(["loadModel", "listModels", "health", "stats"]),
    );
    expect(store.getState().models[0]?.load.state).toBe("loaded");
    expect(store.getState().modelBusy[id]).toBeUndefined();
    expect(store.getState().toasts.at(-1)).toMatchObject({ kind: "success", key: "models.notice.loaded" });
  });

  it("a refused load or a 409 unload (in use) is an error toast with the server's reason", async () => {
    const { store } = storeWith({
      listModels: () => ({ models: [modelRow()], models_dirs: [] }),
      loadModel: () => {
        throw new PerchClientError("insufficient_memory", "Not enough memory for this model", {
          status: 507,
        });
      },
      unloadModel: () => {
        throw new PerchClientError("conflict", "The model is in use by 1 request", { status: 409 });
      },
    });
    await store.getState().loadModel(id);
    expect(store.getState().toasts.at(-1)).toMatchObject({
      kind: "error",
      message: "Not enough memory for this model",
    });
    expect(store.getState().modelBusy[id]).toBeUndefined();
    await store.getState().unloadModel(id);
    expect(store.getState().toasts.at(-1)).toMatchObject({
      kind: "error",
      message: "The model is in use by 1 request",
    });
    expect(store.getState().modelBusy[id]).toBeUndefined();
  });
});
