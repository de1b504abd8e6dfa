import { describe, expect, it } from "vitest";
import { isComposing } from "../../../src-renderer/components/isComposing.js";
import { addTags, splitTagInput } from "../../../src-renderer/settings/SettingsDraft.js";

describe("the tag field", () => {
  it("adds one tag per comma-separated name, typed or pasted", () => {
    expect(addTags([], "x, y, z,")).toEqual(["x", "y", "z"]);
    expect(addTags(["a"], "a,b,c")).toEqual(["a", "b", "c"]);
    expect(addTags([], "コード，チャット")).toEqual(["コード", "チャット"]);
    expect(addTags([], " , ,")).toEqual([]);
  });

  it("keeps the text after the last comma in the field, still being typed", () => {
    expect(splitTagInput("x, y, z,")).toEqual({ done: ["x", " y", " z"], rest: "" });
    expect(splitTagInput("a,b,c")).toEqual({ done: ["a", "b"], rest: "c" });
    expect(splitTagInput("code")).toEqual({ done: [], rest: "code" });
  });
});

describe("keys an input method is composing with", () => {
  it("are not Enter to act on (isComposing, or Safari's key code 229)", () => {
    expect(isComposing({ nativeEvent: { isComposing: true }, keyCode: 13 })).toBe(true);
    expect(isComposing({ nativeEvent: { isComposing: false }, keyCode: 229 })).toBe(true);
    expect(isComposing({ nativeEvent: { isComposing: false }, keyCode: 13 })).toBe(false);
  });
});
