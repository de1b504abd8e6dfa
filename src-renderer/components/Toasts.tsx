import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { usePerch } from "../store/usePerch.js";

/** Outcomes of actions, bottom right; errors stay until dismissed, the rest fade after 4 s. */
export function Toasts() {
  const { t } = useTranslation();
  const toasts = usePerch((state) => state.toasts);
  const dismiss = usePerch((state) => state.dismissToast);

  useEffect(() => {
    const timers = toasts
      .filter((toast) => toast.kind !== "error")
      .map((toast) => window.setTimeout(() => dismiss(toast.id), 4000));
    return () => timers.forEach((timer) => window.clearTimeout(timer));
  }, [toasts, dismiss]);

  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className={`toast toast-${toast.kind}`} data-testid={`toast-${toast.kind}`}>
          <span>
            {toast.key ? t(toast.key, toast.values) : null}
            {toast.key && toast.message ? ": " : null}
            {toast.message}
          </span>
          <button
            type="button"
            className="icon-button"
            aria-label={t("common.dismiss")}
            onClick={() => dismiss(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
