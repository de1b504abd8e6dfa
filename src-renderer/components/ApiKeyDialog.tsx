import { useState } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";
import { Modal } from "./Modal.js";

/** Shown when the server answered 401: the browser dashboard asks for the API key once. */
export function ApiKeyDialog() {
  const { t } = useTranslation();
  const needed = usePerch((state) => state.apiKeyNeeded);
  const saveApiKey = usePerch((state) => state.saveApiKey);
  const [key, setKey] = useState("");
  if (!needed) return null;
  return (
    <Modal
      title={t("apiKey.title")}
      onClose={() => saveApiKey(key)}
      testId="api-key-dialog"
      footer={
        <button type="button" className="button button-primary" onClick={() => saveApiKey(key)}>
          {t("common.save")}
        </button>
      }
    >
      <p>{t("apiKey.message")}</p>
      <input
        type="password"
        aria-label={t("apiKey.title")}
        className="input-wide"
        value={key}
        autoFocus
        onChange={(event) => setKey(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.nativeEvent.isComposing) saveApiKey(key);
        }}
        data-testid="api-key-input"
      />
    </Modal>
  );
}
