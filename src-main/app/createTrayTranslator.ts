import i18next from "i18next";
import { trayMessages, type TrayLocale, type TrayMessageKey } from "../../src-shared/i18n/trayMessages.js";

/** Translates one tray string; `values` fill its `{{name}}` placeholders. */
export type TrayTranslate = (key: TrayMessageKey, values?: Record<string, string | number>) => string;

/** i18next over the tray's resources (as the dashboard uses it), English as the fallback. */
export function createTrayTranslator(locale: TrayLocale): TrayTranslate {
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(
      Object.entries(trayMessages).map(([language, messages]) => [language, { translation: messages }]),
    ),
    lng: locale,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (key, values) => instance.t(key, values ?? {});
}
