import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { NumberField } from "./NumberField.js";
import type { FieldErrorLookup } from "./SettingsModal.js";
import type { SettingsDraft, SpeculativeMode } from "./SettingsDraft.js";

interface SpeculativeFieldsProps {
  draft: SettingsDraft;
  update: (patch: Partial<SettingsDraft>) => void;
  errorAt: FieldErrorLookup;
  modelId: string;
}

/** Speculative decoding: off, a draft model, or prompt lookup. */
export function SpeculativeFields({ draft, update, errorAt, modelId }: SpeculativeFieldsProps) {
  const { t } = useTranslation();
  const models = usePerch((state) => state.models);
  const otherModels = models.filter((model) => model.id !== modelId);
  const speculative = draft.speculative;
  const set = (patch: Partial<SettingsDraft["speculative"]>) =>
    update({ speculative: { ...speculative, ...patch } });
  return (
    <fieldset className="fieldset">
      <legend>{t("settings.sections.speculative")}</legend>
      <div className="field-grid">
        <label className="field">
          <span className="field-label">{t("settings.speculative.mode")}</span>
          <select
            value={speculative.mode}
            onChange={(event) => set({ mode: event.target.value as SpeculativeMode })}
            data-testid="settings-speculative-mode"
          >
            <option value="off">{t("settings.speculative.off")}</option>
            <option value="draft">{t("settings.speculative.draft")}</option>
            <option value="lookup">{t("settings.speculative.lookup")}</option>
          </select>
        </label>
        {speculative.mode === "draft" ? (
          <label className={errorAt("speculative.draftModel") ? "field field-invalid" : "field"}>
            <span className="field-label">{t("settings.speculative.draftModel")}</span>
            <select
              value={speculative.draftModel}
              onChange={(event) => set({ draftModel: event.target.value })}
            >
              <option value="">—</option>
              {otherModels.map((model) => (
                <option key={model.id} value={model.id}>
                  {model.id}
                </option>
              ))}
            </select>
            {errorAt("speculative.draftModel") ? (
              <span className="field-error">{errorAt("speculative.draftModel")}</span>
            ) : null}
          </label>
        ) : null}
        {speculative.mode !== "off" ? (
          <>
            <NumberField
              label={t("settings.speculative.maxDraftTokens")}
              value={speculative.maxDraftTokens}
              placeholder={t("settings.default")}
              step="1"
              error={errorAt("speculative.maxDraftTokens")}
              onChange={(value) => set({ maxDraftTokens: value })}
            />
            <NumberField
              label={t("settings.speculative.minDraftTokens")}
              value={speculative.minDraftTokens}
              placeholder={t("settings.default")}
              step="1"
              error={errorAt("speculative.minDraftTokens")}
              onChange={(value) => set({ minDraftTokens: value })}
            />
          </>
        ) : null}
      </div>
      {speculative.mode !== "off" ? <p className="field-hint">{t("settings.speculative.note")}</p> : null}
    </fieldset>
  );
}
