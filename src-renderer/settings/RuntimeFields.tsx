import { useTranslation } from "react-i18next";
import { promptCacheDefaults, runtimeDefaults } from "../../src-shared/contracts/modelDefaults.js";
import { usePerch } from "../store/usePerch.js";
import { NumberField } from "./NumberField.js";
import type { FieldErrorLookup } from "./SettingsModal.js";
import { chatFormats, type ChatFormat } from "../../src-shared/contracts/settings.js";
import { runtimeKeys, type KvCacheType, type SettingsDraft } from "./SettingsDraft.js";

interface RuntimeFieldsProps {
  draft: SettingsDraft;
  update: (patch: Partial<SettingsDraft>) => void;
  errorAt: FieldErrorLookup;
  contextLength: number | null;
}

/** Context, TTL, pinning, concurrency, prompt cache sizes, KV cache type and chat format. */
export function RuntimeFields({ draft, update, errorAt, contextLength }: RuntimeFieldsProps) {
  const { t } = useTranslation();
  const globalTtl = usePerch((state) => state.globalSettings?.settings.default_ttl_seconds);
  // What each empty field stands for, as the server resolves it.
  const defaults: Record<(typeof runtimeKeys)[number], string> = {
    context_size: t("settings.defaultValue", {
      value: Math.min(contextLength ?? runtimeDefaults.context_size_cap, runtimeDefaults.context_size_cap),
    }),
    ttl_seconds:
      globalTtl === undefined ? t("settings.default") : t("settings.defaultTtl", { value: globalTtl }),
    max_concurrent_requests: t("settings.defaultValue", { value: runtimeDefaults.max_concurrent_requests }),
    max_queue: t("settings.defaultValue", { value: runtimeDefaults.max_queue }),
    prompt_cache_ram_mib: t("settings.defaultValue", { value: promptCacheDefaults.ram_mib }),
    prompt_cache_disk_mib: t("settings.defaultValue", { value: promptCacheDefaults.disk_mib }),
  };
  return (
    <fieldset className="fieldset">
      <legend>{t("settings.sections.runtime")}</legend>
      <div className="field-grid">
        {runtimeKeys.map((key) => (
          <NumberField
            key={key}
            label={t(`settings.runtime.${key}`)}
            value={draft.runtime[key]}
            placeholder={defaults[key]}
            step="1"
            hint={
              key === "context_size" && contextLength
                ? t("settings.runtime.trainedContext", { tokens: contextLength })
                : undefined
            }
            error={errorAt(key)}
            testId={`settings-${key}`}
            onChange={(value) => update({ runtime: { ...draft.runtime, [key]: value } })}
          />
        ))}
        <label className="field">
          <span className="field-label">{t("settings.runtime.kv_cache_type")}</span>
          <select
            value={draft.kv_cache_type}
            onChange={(event) => update({ kv_cache_type: event.target.value as KvCacheType | "" })}
          >
            <option value="">{t("settings.defaultValue", { value: "f16" })}</option>
            <option value="f16">f16</option>
            <option value="q8_0">q8_0 ({t("settings.experimental")})</option>
            <option value="q4_0">q4_0 ({t("settings.experimental")})</option>
          </select>
        </label>
        <label className="field">
          <span className="field-label">{t("settings.runtime.chat_format")}</span>
          <select
            value={draft.chat_format}
            onChange={(event) => update({ chat_format: event.target.value as ChatFormat })}
            data-testid="settings-chat_format"
          >
            {chatFormats.map((format) => (
              <option key={format} value={format}>
                {format === "auto" ? t("settings.runtime.chatFormatAuto") : format}
              </option>
            ))}
          </select>
        </label>
        <label className="field field-checkbox">
          <input
            type="checkbox"
            checked={draft.pinned}
            onChange={(event) => update({ pinned: event.target.checked })}
            data-testid="settings-pinned"
          />
          <span>{t("settings.runtime.pinned")}</span>
        </label>
      </div>
      <p className="field-hint" data-testid="settings-applies-on-load">
        {t("settings.runtime.appliesOnLoad")}
      </p>
    </fieldset>
  );
}
