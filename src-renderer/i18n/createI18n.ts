import i18next, { type i18n } from "i18next";
import { initReactI18next } from "react-i18next";
import { de } from "./locales/de.js";
import { en } from "./locales/en.js";
import { ja } from "./locales/ja.js";
import { supportedLocales, type Locale } from "./supportedLocales.js";

export const localeStorageKey = "perch.locale";

export const resources = {
  en: { translation: en },
  de: { translation: de },
  ja: { translation: ja },
} as const satisfies Record<Locale, unknown>;

/** The remembered choice, else the first browser language we have, else English. */
export function initialLocale(storage: Pick<Storage, "getItem">, languages: readonly string[]): Locale {
  const stored = storage.getItem(localeStorageKey);
  const candidates = [stored, ...languages].filter((value): value is string => Boolean(value));
  for (const candidate of candidates) {
    const base = candidate.toLowerCase().split("-")[0];
    if ((supportedLocales as readonly string[]).includes(base)) return base as Locale;
  }
  return "en";
}

/** A synchronously initialised i18next instance with every locale bundled. */
export function createI18n(locale: Locale): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources,
    lng: locale,
    fallbackLng: "en",
    supportedLngs: [...supportedLocales],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  const setLang = (language: string) => {
    if (typeof document !== "undefined") document.documentElement.lang = language;
  };
  setLang(locale);
  instance.on("languageChanged", setLang);
  return instance;
}
