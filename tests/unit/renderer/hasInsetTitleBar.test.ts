import { describe, expect, it } from "vitest";
import { hasInsetTitleBar } from "../../../src-renderer/components/hasInsetTitleBar.js";

const mac =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Perch/0.1.0 Electron/45.3.4";
const linux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0";

describe("hasInsetTitleBar", () => {
  it("is true only inside the Mac app: the preload bridge and macOS", () => {
    expect(hasInsetTitleBar({ perch: {}, navigator: { userAgent: mac } })).toBe(true);
    expect(hasInsetTitleBar({ navigator: { userAgent: mac } })).toBe(false); // Safari on a Mac
    expect(hasInsetTitleBar({ perch: {}, navigator: { userAgent: linux } })).toBe(false);
  });
});
