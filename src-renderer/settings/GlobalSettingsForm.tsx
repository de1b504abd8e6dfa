import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  globalSettingsPatchSchema,
  type GlobalSettingsPatch,
  type GlobalSettingsResponse,
} from "../../src-shared/contracts/settings.js";
import { PerchClientError } from "../client/PerchClientError.js";
import { Card } from "../components/Card.js";
import { ErrorNote } from "../components/ErrorNote.js";
import { formatNumber } from "../format/formatNumber.js";
import { toErrorInfo, type ErrorInfo } from "../store/ErrorInfo.js";
import { usePerch } from "../store/usePerch.js";
import {
  isMemoryBudgetAccepted,
  memoryBudgetBytes,
  memoryBudgetText,
  minimumMemoryBudgetGib,
} from "./memoryBudget.js";
import { NumberField } from "./NumberField.js";
import { parseDecimal } from "../format/parseDecimal.js";
import { fieldIssueOf, issueMessage } from "../i18n/issueMessage.js";
import { TextField } from "./TextField.js";
import { settingLabels } from "./settingLabels.js";

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * Every global setting, checked against the contract before it is sent (the server checks
 * again). The running server's own values are shown beside what is saved, since a port given on
 * the command line wins over the file.
 */
export function GlobalSettingsForm({ current }: { current: GlobalSettingsResponse }) {
  const { t, i18n } = useTranslation();
  const save = usePerch((state) => state.saveGlobalSettings);
  const saved = current.settings;
  const effective = current.effective;
  const [host, setHost] = useState(saved.host);
  const [port, setPort] = useState(String(saved.port));
  const [dirs, setDirs] = useState(saved.models_dirs.join("\n"));
  const [apiKey, setApiKey] = useState("");
  const [removeKey, setRemoveKey] = useState(false);
  const [remoteAdmin, setRemoteAdmin] = useState(saved.allow_remote_admin);
  const [hf, setHf] = useState(saved.hf_endpoint ?? "");
  const [modelScope, setModelScope] = useState(saved.modelscope_endpoint ?? "");
  const [ttl, setTtl] = useState(String(saved.default_ttl_seconds));
  const [budget, setBudget] = useState(memoryBudgetText(saved.memory_budget_bytes));
  const [uploadUrl, setUploadUrl] = useState(saved.community_upload_url ?? "");
  const [threads, setThreads] = useState(saved.threads === null ? "" : String(saved.threads));
  const [hfToken, setHfToken] = useState("");
  const [removeHfToken, setRemoveHfToken] = useState(false);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const errorAt = (path: string) => {
    const field = error?.fields.find((entry) => entry.path.startsWith(path));
    if (!field) return undefined;
    // The contract's own words for a bad host (a custom check), said in the page's language.
    if (field.path === "host" && field.issue?.code === "custom") return t("global.hostInvalid");
    return issueMessage(field.issue, field.message, t, i18n.language);
  };

  const submit = () => {
    const budgetBytes = memoryBudgetBytes(budget);
    // Whole numbers as typed (`0x1` is not 1); an empty port or idle time is no number either.
    const required = (text: string) => parseDecimal(text) ?? Number.NaN;
    const patch: Record<string, unknown> = {
      host: host.trim(),
      port: required(port),
      models_dirs: lines(dirs),
      allow_remote_admin: remoteAdmin,
      hf_endpoint: hf.trim() || null,
      modelscope_endpoint: modelScope.trim() || null,
      default_ttl_seconds: required(ttl),
      memory_budget_bytes: budgetBytes,
      community_upload_url: uploadUrl.trim() || null,
      threads: parseDecimal(threads) ?? null,
    };
    if (removeKey) patch.api_key = null;
    else if (apiKey) patch.api_key = apiKey;
    if (removeHfToken) patch.hf_token = null;
    else if (hfToken) patch.hf_token = hfToken;
    const checked = globalSettingsPatchSchema.safeParse(patch);
    // Every field that is not valid is marked at once, the memory budget (said in GiB) with them.
    const details = (checked.success ? [] : checked.error.issues)
      .filter((issue) => !(issue.path[0] === "memory_budget_bytes" && !isMemoryBudgetAccepted(budgetBytes)))
      .map((issue) => ({ ...fieldIssueOf(issue), path: issue.path.map(String), message: issue.message }));
    if (!isMemoryBudgetAccepted(budgetBytes)) {
      const message = t("global.memoryBudgetMinimum", {
        minimum: formatNumber(minimumMemoryBudgetGib, i18n.language),
      });
      details.push({ path: ["memory_budget_bytes"], message });
    }
    if (!checked.success || details.length > 0) {
      setError(
        toErrorInfo(new PerchClientError("invalid_request", details[0]?.message ?? "invalid", { details })),
      );
      return;
    }
    void save(checked.data as GlobalSettingsPatch).then((failure) => {
      setError(failure);
      if (failure) return;
      setApiKey("");
      setHfToken("");
      setRemoveHfToken(false);
    });
  };

  const running = effective.port !== null ? `${effective.host}:${effective.port}` : null;
  return (
    <Card title={t("global.server")} testId="global-settings">
      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {running ? (
          <p className="settings-running" data-testid="settings-running">
            {t("global.runningAt", { address: running })}
          </p>
        ) : null}
        {current.restart_required.length > 0 ? (
          <p className="settings-restart" role="status">
            {t("global.restartRequired", {
              fields: settingLabels(current.restart_required, t),
            })}
          </p>
        ) : null}
        {error && error.fields.length === 0 ? <ErrorNote error={error} /> : null}
        <div className="field-grid">
          <TextField
            label={t("global.host")}
            value={host}
            onChange={setHost}
            error={errorAt("host")}
            hint={
              effective.host && effective.host !== saved.host
                ? t("global.runningWith", { value: effective.host })
                : t("global.restartHint")
            }
            testId="settings-host"
          />
          <NumberField
            label={t("global.port")}
            value={port}
            step="1"
            onChange={setPort}
            error={errorAt("port")}
            hint={
              effective.port !== null && effective.port !== saved.port
                ? t("global.runningWith", { value: String(effective.port) })
                : t("global.restartHint")
            }
            testId="settings-port"
          />
          <NumberField
            label={t("global.ttl")}
            value={ttl}
            step="1"
            onChange={setTtl}
            error={errorAt("default_ttl_seconds")}
            hint={t("global.ttlHint")}
            testId="settings-ttl"
          />
          <NumberField
            label={t("global.memoryBudget")}
            value={budget}
            step="0.5"
            onChange={setBudget}
            placeholder={t("global.memoryBudgetDefault")}
            error={errorAt("memory_budget_bytes")}
            hint={t("global.restartHint")}
            testId="settings-memory-budget"
          />
          <NumberField
            label={t("global.threads")}
            value={threads}
            step="1"
            onChange={setThreads}
            placeholder={t("global.threadsDefault", { count: effective.default_threads })}
            error={errorAt("threads")}
            hint={
              effective.threads !== null
                ? t("global.threadsInEffect", { count: effective.threads })
                : t("global.restartHint")
            }
            testId="settings-threads"
          />
        </div>
        <label className={errorAt("models_dirs") ? "field field-invalid" : "field"}>
          <span className="field-label">{t("global.modelsDirs")}</span>
          <textarea
            rows={3}
            value={dirs}
            onChange={(event) => setDirs(event.target.value)}
            data-testid="settings-models-dirs"
          />
          <span className={errorAt("models_dirs") ? "field-error" : "field-hint"}>
            {errorAt("models_dirs") ??
              t("global.modelsDirsInUse", { dirs: effective.models_dirs.join(", ") })}
          </span>
        </label>
        <div className="field-grid">
          <TextField
            label={t("global.apiKey")}
            type="password"
            value={apiKey}
            onChange={setApiKey}
            placeholder={saved.api_key_set ? t("global.apiKeySet") : t("global.apiKeyNone")}
            error={errorAt("api_key")}
            hint={t("global.restartHint")}
            testId="settings-api-key"
          />
          <label className="field field-checkbox">
            <input
              type="checkbox"
              checked={removeKey}
              disabled={!saved.api_key_set}
              onChange={(event) => setRemoveKey(event.target.checked)}
            />
            <span>{t("global.apiKeyRemove")}</span>
          </label>
          <label className="field field-checkbox">
            <input
              type="checkbox"
              checked={remoteAdmin}
              onChange={(event) => setRemoteAdmin(event.target.checked)}
              data-testid="settings-remote-admin"
            />
            <span>{t("global.remoteAdmin")}</span>
          </label>
        </div>
        <div className="field-grid">
          <TextField
            label={t("global.hfEndpoint")}
            value={hf}
            onChange={setHf}
            placeholder={effective.hf_endpoint}
            error={errorAt("hf_endpoint")}
            testId="settings-hf-endpoint"
          />
          <TextField
            label={t("global.modelScopeEndpoint")}
            value={modelScope}
            onChange={setModelScope}
            placeholder={effective.modelscope_endpoint}
            error={errorAt("modelscope_endpoint")}
            testId="settings-modelscope-endpoint"
          />
          <TextField
            label={t("global.hfToken")}
            type="password"
            value={hfToken}
            onChange={setHfToken}
            placeholder={
              saved.hf_token_set
                ? t("global.hfTokenSet")
                : effective.hf_token_source === "environment"
                  ? t("global.hfTokenFromEnvironment")
                  : t("global.hfTokenNone")
            }
            error={errorAt("hf_token")}
            hint={t("global.hfTokenHint")}
            testId="settings-hf-token"
          />
          <label className="field field-checkbox">
            <input
              type="checkbox"
              checked={removeHfToken}
              disabled={!saved.hf_token_set}
              onChange={(event) => setRemoveHfToken(event.target.checked)}
              data-testid="settings-hf-token-remove"
            />
            <span>{t("global.hfTokenRemove")}</span>
          </label>
        </div>
        <TextField
          label={t("global.uploadUrl")}
          value={uploadUrl}
          onChange={setUploadUrl}
          placeholder="https://"
          error={errorAt("community_upload_url")}
          testId="settings-upload-url"
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" data-testid="settings-save-global">
            {t("common.save")}
          </button>
        </div>
      </form>
    </Card>
  );
}
