import { describe, expect, it } from "vitest";
import { resources } from "../../../src-renderer/i18n/createI18n.js";
import { settingLabels } from "../../../src-renderer/settings/settingLabels.js";

/** Looks a dotted key up in the English messages, as i18next's `t` does. */
const t = (key: string): string =>
  String(
    key
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resources.en.translation),
  );

describe("settingLabels", () => {
  it("names the settings a restart applies as the settings form labels them, not by their keys", () => {
    expect(settingLabels(["default_ttl_seconds", "port", "threads"], t)).toBe(
      "Default idle unload (s), Port, Inference threads",
    );
    // A setting without a label (a newer server) still shows.
    expect(settingLabels(["something_new"], t)).toBe("something_new");
  });
});
