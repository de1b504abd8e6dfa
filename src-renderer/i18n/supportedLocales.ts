export const supportedLocales = ["en", "de", "ja"] as const;
export type Locale = (typeof supportedLocales)[number];

/** Each language named in itself, as a language menu shows it. */
export const localeNames: Record<Locale, string> = { en: "English", de: "Deutsch", ja: "日本語" };
