import { useTranslation } from "react-i18next";
import { localeNames, supportedLocales, type Locale } from "../i18n/supportedLocales.js";
import { localeStorageKey } from "../i18n/createI18n.js";

/** Language menu; the choice is remembered in this browser / app. */
export function LocaleSwitcher() {
  const { t, i18n } = useTranslation();
  const current = (supportedLocales as readonly string[]).includes(i18n.language) ? i18n.language : "en";
  return (
    <label className="locale-switcher">
      <span className="visually-hidden">{t("nav.language")}</span>
      <select
        value={current}
        aria-label={t("nav.language")}
        data-testid="locale-switcher"
        onChange={(event) => {
          const locale = event.target.value as Locale;
          window.localStorage.setItem(localeStorageKey, locale);
          void i18n.changeLanguage(locale);
        }}
      >
        {supportedLocales.map((locale) => (
          <option key={locale} value={locale}>
            {localeNames[locale]}
          </option>
        ))}
      </select>
    </label>
  );
}
