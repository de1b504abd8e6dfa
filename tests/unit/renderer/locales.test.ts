import { describe, expect, it } from "vitest";
import { resources } from "../../../src-renderer/i18n/createI18n.js";
import type { Messages } from "../../../src-renderer/i18n/locales/Messages.js";
import { supportedLocales } from "../../../src-renderer/i18n/supportedLocales.js";

const pluralSuffix = /_(zero|one|two|few|many|other)$/;

function flatten(messages: Messages, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [inner, text] of flatten(value, path)) out.set(inner, text);
  }
  return out;
}

/** The keys a locale must have: plain keys as in English, plural keys in the locale's own forms. */
function requiredKeys(english: Map<string, string>, locale: string): Set<string> {
  const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const required = new Set<string>();
  for (const key of english.keys()) {
    if (pluralSuffix.test(key)) {
      const base = key.replace(pluralSuffix, "");
      for (const category of categories)
        if (category !== "zero" || key.endsWith("_zero")) required.add(`${base}_${category}`);
    } else required.add(key);
  }
  return required;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe("locales", () => {
  const english = flatten(resources.en.translation);

  it("offers English and at least two more languages", () => {
    expect(supportedLocales[0]).toBe("en");
    expect(supportedLocales.length).toBeGreaterThanOrEqual(3);
  });

  for (const locale of supportedLocales.filter((candidate) => candidate !== "en")) {
    describe(locale, () => {
      const messages = flatten(resources[locale].translation);

      it("has every key English has (in its own plural forms)", () => {
        const missing = [...requiredKeys(english, locale)].filter((key) => !messages.has(key));
        expect(missing, `missing in ${locale}`).toEqual([]);
      });

      it("has no key English does not know", () => {
        const englishBases = new Set([...english.keys()].map((key) => key.replace(pluralSuffix, "")));
        const extra = [...messages.keys()].filter((key) => !englishBases.has(key.replace(pluralSuffix, "")));
        expect(extra, `unknown in ${locale}`).toEqual([]);
      });

      it("keeps the placeholders of every message", () => {
        const wrong: string[] = [];
        for (const [key, text] of messages) {
          const englishText = english.get(key) ?? english.get(key.replace(pluralSuffix, "_other"));
          if (englishText === undefined) continue;
          const expected = placeholders(englishText).filter((name) => name !== "count");
          const actual = placeholders(text).filter((name) => name !== "count");
          if (expected.join() !== actual.join()) wrong.push(`${key}: ${actual.join()} ≠ ${expected.join()}`);
        }
        expect(wrong).toEqual([]);
      });

      it("translates (no message left empty)", () => {
        expect([...messages].filter(([, text]) => text.trim() === "").map(([key]) => key)).toEqual([]);
      });
    });
  }

  it("every key used in the components exists in English", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const path = await import("node:path");
    const root = path.resolve(import.meta.dirname, "../../../src-renderer");
    const files = (await readdir(root, { recursive: true })).filter((file) => /\.tsx?$/.test(file));
    const used = new Set<string>();
    for (const file of files) {
      const source = await readFile(path.join(root, file), "utf8");
      for (const match of source.matchAll(/\bt\(\s*"([a-zA-Z][\w.]*)"/g)) used.add(match[1]);
      for (const match of source.matchAll(/\bkey:\s*"([a-z][\w]*\.[\w.]+)"/g)) used.add(match[1]);
    }
    const englishBases = new Set([...english.keys()].map((key) => key.replace(pluralSuffix, "")));
    expect([...used].filter((key) => !englishBases.has(key))).toEqual([]);
    expect(used.size).toBeGreaterThan(100);
  });
});
