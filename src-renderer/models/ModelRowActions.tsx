import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { ActionMenu, type MenuAction } from "../components/ActionMenu.js";
import { BusyButton } from "../components/BusyButton.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { usePerch } from "../store/usePerch.js";
import { useMemoryAction } from "./useMemoryAction.js";

/**
 * Load or unload (by the row's load state), check for update (remote models), settings,
 * benchmark, delete (asks first).
 */
export function ModelRowActions({ model, name }: { model: ModelRow; name: string }) {
  const { t } = useTranslation();
  const busy = usePerch((state) => state.modelBusy[model.id]);
  const checkUpdate = usePerch((state) => state.checkUpdate);
  const openSettings = usePerch((state) => state.openSettings);
  const benchmarkModel = usePerch((state) => state.benchmarkModel);
  const deleteModel = usePerch((state) => state.deleteModel);
  const memory = useMemoryAction(model, busy);
  const [confirming, setConfirming] = useState(false);
  const remote = model.source === "hf" || model.source === "modelscope";
  // In a narrow window the same actions collapse into a "⋯" menu (CSS shows one or the other).
  const menu: MenuAction[] = [
    { label: memory.label, disabled: memory.disabled, onSelect: memory.run, testId: `menu-${memory.kind}` },
    ...(remote
      ? [
          {
            label: t("models.actions.checkUpdate"),
            disabled: busy !== undefined,
            onSelect: () => void checkUpdate(model.id),
          },
        ]
      : []),
    { label: t("models.actions.settings"), onSelect: () => openSettings(model.id), testId: "menu-settings" },
    {
      label: t("models.actions.benchmark"),
      disabled: model.missing || model.gguf_error !== null,
      onSelect: () => benchmarkModel(model.id),
      testId: "menu-benchmark",
    },
    {
      label: t("models.actions.delete"),
      danger: true,
      disabled: busy !== undefined,
      onSelect: () => setConfirming(true),
      testId: "menu-delete",
    },
  ];

  return (
    <div className="row-actions">
      <span className="row-actions-menu">
        <ActionMenu label={t("models.columns.actions")} actions={menu} testId="model-actions-menu" />
      </span>
      <BusyButton
        className="button button-small"
        unavailable={memory.disabled}
        onClick={memory.run}
        data-testid={`action-${memory.kind}`}
      >
        {memory.label}
      </BusyButton>
      {remote ? (
        <BusyButton
          className="button button-small"
          unavailable={busy !== undefined}
          onClick={() => void checkUpdate(model.id)}
          data-testid="action-check-update"
        >
          {busy === "checking" ? t("models.actions.checking") : t("models.actions.checkUpdate")}
        </BusyButton>
      ) : null}
      <button
        type="button"
        className="button button-small"
        onClick={() => openSettings(model.id)}
        data-testid="action-settings"
      >
        {t("models.actions.settings")}
      </button>
      <button
        type="button"
        className="button button-small"
        disabled={model.missing || model.gguf_error !== null}
        onClick={() => benchmarkModel(model.id)}
        data-testid="action-benchmark"
      >
        {t("models.actions.benchmark")}
      </button>
      <button
        type="button"
        className="button button-small button-danger-quiet"
        disabled={busy !== undefined}
        onClick={() => setConfirming(true)}
        data-testid="action-delete"
      >
        {busy === "deleting" ? t("models.actions.deleting") : t("models.actions.delete")}
      </button>
      {confirming ? (
        <ConfirmDialog
          title={t("models.delete.title", { name })}
          message={t("models.delete.message", { count: model.files.length, path: model.path })}
          confirmLabel={t("models.delete.confirm")}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void deleteModel(model.id);
          }}
        />
      ) : null}
    </div>
  );
}
