import { describe, expect, it } from "vitest";
import { colorsWanted } from "../../../src-main/base/createLogger.js";

describe("colour on a terminal (no-color.org)", () => {
  it("is on by default, off with NO_COLOR set to anything but empty, and FORCE_COLOR decides over both", () => {
    expect(colorsWanted({})).toBe(true);
    expect(colorsWanted({ NO_COLOR: "1" })).toBe(false);
    expect(colorsWanted({ NO_COLOR: "" })).toBe(true);
    expect(colorsWanted({ NO_COLOR: "1", FORCE_COLOR: "1" })).toBe(true);
    expect(colorsWanted({ NO_COLOR: "1", FORCE_COLOR: "" })).toBe(true);
    expect(colorsWanted({ FORCE_COLOR: "0" })).toBe(false);
    expect(colorsWanted({ FORCE_COLOR: "false" })).toBe(false);
  });
});
