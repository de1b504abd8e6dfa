import { useState } from "react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { issueMessage } from "../i18n/issueMessage.js";
import type { ModelRow } from "../../src-shared/contracts/models.js";
import { ConfirmDialog } from "../components/ConfirmDialog.js";
import { Modal } from "../components/Modal.js";
import { modelDisplayName } from "../models/modelDisplayName.js";
import type { ErrorInfo } from "../store/ErrorInfo.js";
import { usePerch } from "../store/usePerch.js";
import { RuntimeFields } from "./RuntimeFields.js";
import { SamplingFields } from "./SamplingFields.js";
import { draftToSettings, settingsToDraft, type SettingsDraft } from "./SettingsDraft.js";
import { SpeculativeFields } from "./SpeculativeFields.js";
import { TagsEditor } from "./TagsEditor.js";

export type FieldErrorLookup = (path: string) => string | undefined;

/**
 * The rejected fields of a failed save, looked up by path (`sampling.temperature`, `tags`...),
 * said in the page's language where the check said what it found.
 */
function fieldErrors(error: ErrorInfo | null, t: TFunction, locale: string): FieldErrorLookup {
  return (path) => {
    const field = error?.fields.find((entry) => entry.path === path || entry.path.startsWith(`${path}.`));
    return field ? issueMessage(field.issue, field.message, t, locale) : undefined;
  };
}

/** Mounted by the app while a model's settings are open. */
export function SettingsModal() {
  const modelId = usePerch((state) => state.settingsModelId);
  const model = usePerch((state) => state.models.find((candidate) => candidate.id === modelId));
  if (!model) return null;
  return <SettingsForm key={model.id} model={model} />;
}

function SettingsForm({ model }: { model: ModelRow }) {
  const { t, i18n } = useTranslation();
  const close = usePerch((state) => state.closeSettings);
  const save = usePerch((state) => state.saveModelSettings);
  const saving = usePerch((state) => state.modelBusy[model.id] === "saving");
  const [draft, setDraft] = useState<SettingsDraft>(() => settingsToDraft(model.settings));
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [askDiscard, setAskDiscard] = useState(false);
  const errorAt = fieldErrors(error, t, i18n.language);
  // Escape, the backdrop and × ask before throwing edits away; Cancel is the explicit way out.
  const edited =
    JSON.stringify(draftToSettings(draft)) !==
    JSON.stringify(draftToSettings(settingsToDraft(model.settings)));
  const requestClose = () => (edited ? setAskDiscard(true) : close());
  const update = (patch: Partial<SettingsDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const unplaced = error && error.fields.length === 0 ? error.message : null;

  const submit = async () => {
    const failure = await save(model.id, draftToSettings(draft));
    if (failure) setError(failure);
    else close();
  };

  return (
    <>
      <Modal
        title={t("settings.title", { name: modelDisplayName(model) })}
        onClose={requestClose}
        wide
        testId="settings-modal"
        footer={
          <>
            <button type="button" className="button" onClick={close}>
              {t("common.cancel")}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={saving}
              onClick={() => void submit()}
              data-testid="settings-save"
            >
              {saving ? t("common.saving") : t("common.save")}
            </button>
          </>
        }
      >
        <form
          className="settings-form"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          {unplaced || (error && error.fields.length > 0) ? (
            <div className="error-note" role="alert" data-testid="settings-error">
              {unplaced ?? t("settings.fixFields")}
            </div>
          ) : null}
          <fieldset className="fieldset">
            <legend>{t("settings.sections.identity")}</legend>
            <label className={errorAt("alias") ? "field field-invalid" : "field"}>
              <span className="field-label">{t("settings.alias")}</span>
              <input
                value={draft.alias}
                placeholder={model.id}
                onChange={(event) => update({ alias: event.target.value })}
                data-testid="settings-alias"
              />
              {errorAt("alias") ? (
                <span className="field-error">{errorAt("alias")}</span>
              ) : (
                <span className="field-hint">{t("settings.aliasHint")}</span>
              )}
            </label>
            <div className="field">
              <span className="field-label">{t("settings.tags.label")}</span>
              <TagsEditor
                tags={draft.tags}
                suggested={model.suggested_tags}
                onChange={(tags) => update({ tags })}
                error={errorAt("tags")}
              />
            </div>
          </fieldset>
          <SamplingFields draft={draft} update={update} errorAt={errorAt} />
          <RuntimeFields
            draft={draft}
            update={update}
            errorAt={errorAt}
            contextLength={model.gguf?.context_length ?? null}
          />
          <SpeculativeFields draft={draft} update={update} errorAt={errorAt} modelId={model.id} />
          <button type="submit" hidden />
        </form>
      </Modal>
      {askDiscard ? (
        <ConfirmDialog
          title={t("settings.discard.title")}
          message={t("settings.discard.message")}
          confirmLabel={t("settings.discard.confirm")}
          onConfirm={close}
          onCancel={() => setAskDiscard(false)}
        />
      ) : null}
    </>
  );
}
