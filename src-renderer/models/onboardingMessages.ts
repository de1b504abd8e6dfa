import type { i18n } from "i18next";

/** The first-run card's strings, in their own i18next namespace (no edit to the shared locales). */
export const onboardingNamespace = "onboarding";

export const onboardingMessages = {
  en: {
    title: "Get a first model",
    intro:
      "Perch serves GGUF models from your disk. Download one of these small instruct models, or add a folder that already holds .gguf files (LM Studio's and the Hugging Face cache are found on their own).",
    download: "Download",
    size: "about {{size}}",
    licence: "Licence: {{licence}}",
    folderLabel: "Folder with .gguf files",
    addFolder: "Add folder",
  },
  de: {
    title: "Ein erstes Modell holen",
    intro:
      "Perch stellt GGUF-Modelle von deiner Festplatte bereit. Lade eines dieser kleinen Instruct-Modelle herunter oder füge einen Ordner mit .gguf-Dateien hinzu (LM Studio und der Hugging-Face-Cache werden von selbst gefunden).",
    download: "Herunterladen",
    size: "etwa {{size}}",
    licence: "Lizenz: {{licence}}",
    folderLabel: "Ordner mit .gguf-Dateien",
    addFolder: "Ordner hinzufügen",
  },
  ja: {
    title: "最初のモデルを用意する",
    intro:
      "Perch はディスク上の GGUF モデルを提供します。以下の小さな Instruct モデルをダウンロードするか、.gguf ファイルのあるフォルダーを追加してください（LM Studio と Hugging Face のキャッシュは自動で見つかります）。",
    download: "ダウンロード",
    size: "約 {{size}}",
    licence: "ライセンス: {{licence}}",
    folderLabel: ".gguf ファイルのあるフォルダー",
    addFolder: "フォルダーを追加",
  },
} as const;

/** Adds the namespace to the dashboard's i18next instance once. */
export function addOnboardingMessages(instance: i18n): void {
  for (const [language, bundle] of Object.entries(onboardingMessages)) {
    if (!instance.hasResourceBundle(language, onboardingNamespace)) {
      instance.addResourceBundle(language, onboardingNamespace, bundle);
    }
  }
}
