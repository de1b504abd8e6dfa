import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { onboardingMessages } from "../../../src-renderer/models/onboardingMessages.js";

describe("first-run card strings", () => {
  it("has every key the card uses, in English, German and Japanese", async () => {
    const file = path.resolve(import.meta.dirname, "../../../src-renderer/models/FirstRunCard.tsx");
    const used = [...(await readFile(file, "utf8")).matchAll(/\btOnboarding\(\s*"(\w+)"/g)].map(
      (match) => match[1],
    );
    expect(used.length).toBeGreaterThan(5);
    const english = Object.keys(onboardingMessages.en).sort();
    for (const messages of Object.values(onboardingMessages)) {
      expect(Object.keys(messages).sort()).toEqual(english);
    }
    expect(used.filter((key) => !english.includes(key))).toEqual([]);
  });
});
