import { describe, expect, it } from "vitest";
import {
  modelSettingsFieldClasses,
  modelSettingsSchema,
  profileSettingsSchema,
  templateSettingsSchema,
} from "../../../src-shared/contracts/settings.js";

describe("ModelSettings field classification", () => {
  it("classifies every ModelSettings field exactly once", () => {
    const fields = Object.keys(modelSettingsSchema.shape).sort();
    const classified = Object.keys(modelSettingsFieldClasses).sort();
    // A new field added to modelSettingsSchema without a class fails here (and at compile time).
    expect(classified).toEqual(fields);
    for (const fieldClass of Object.values(modelSettingsFieldClasses)) {
      expect(["universal", "model_specific", "excluded"]).toContain(fieldClass);
    }
  });

  it("templates carry universal fields only; profiles add model-specific ones; excluded go nowhere", () => {
    const byClass = (wanted: string) =>
      Object.entries(modelSettingsFieldClasses)
        .filter(([, fieldClass]) => fieldClass === wanted)
        .map(([field]) => field)
        .sort();
    expect(Object.keys(templateSettingsSchema.shape).sort()).toEqual(byClass("universal"));
    expect(Object.keys(profileSettingsSchema.shape).sort()).toEqual(
      [...byClass("universal"), ...byClass("model_specific")].sort(),
    );
    for (const excluded of byClass("excluded")) {
      expect(templateSettingsSchema.safeParse({ [excluded]: [] }).success).toBe(false);
      expect(profileSettingsSchema.safeParse({ [excluded]: [] }).success).toBe(false);
    }
    expect(templateSettingsSchema.safeParse({ context_size: 4096 }).success).toBe(false);
    expect(profileSettingsSchema.safeParse({ context_size: 4096 }).success).toBe(true);
    expect(profileSettingsSchema.safeParse({ tags: ["x"] }).success).toBe(false);
  });
});
