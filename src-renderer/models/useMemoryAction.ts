import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import type { ModelAction } from "../store/createModelsSlice.js";
import { usePerch } from "../store/usePerch.js";

export interface MemoryAction {
  /** `load` for a model not in memory, `unload` for one that is (or is loading). */
  kind: "load" | "unload";
  label: string;
  disabled: boolean;
  run(): void;
}

/**
 * The row's Load or Unload action: which one follows the model's load state, its label says
 * "Loading…" / "Unloading…" while the request runs, and a missing or unreadable file cannot load.
 */
export function useMemoryAction(model: ModelRow, busy: ModelAction | undefined): MemoryAction {
  const { t } = useTranslation();
  const loadModel = usePerch((state) => state.loadModel);
  const unloadModel = usePerch((state) => state.unloadModel);
  if (busy === "loading" || model.load.state === "loading")
    return { kind: "load", label: t("models.actions.loadingModel"), disabled: true, run: () => {} };
  if (model.load.state === "loaded")
    return {
      kind: "unload",
      label: busy === "unloading" ? t("models.actions.unloading") : t("models.actions.unload"),
      disabled: busy !== undefined,
      run: () => void unloadModel(model.id),
    };
  return {
    kind: "load",
    label: t("models.actions.load"),
    disabled: busy !== undefined || model.missing || model.gguf_error !== null,
    run: () => void loadModel(model.id),
  };
}
