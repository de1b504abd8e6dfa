import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * Copies a text to the clipboard and says so for a moment. Where the page has no clipboard
 * access (plain HTTP from another computer), it says that instead of pretending.
 */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <button
      type="button"
      className="link-button copy-button"
      aria-label={`${t("common.copy")}: ${label}`}
      title={text}
      onClick={() => void copy()}
      data-testid={testId}
    >
      {state === "copied"
        ? t("common.copied")
        : state === "failed"
          ? t("common.copyFailed")
          : t("common.copy")}
    </button>
  );
}
