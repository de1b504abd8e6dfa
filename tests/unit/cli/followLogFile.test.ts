import { getEventListeners } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { followLogFile } from "../../../src-main/cli/logs/followLogFile.js";

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("followLogFile (perch logs -f)", () => {
  it("emits appended lines and leaves no abort listener behind per poll", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-follow-"));
    folders.push(dir);
    const file = path.join(dir, "perch.1.log");
    fs.writeFileSync(file, "old line\n");
    const link = path.join(dir, "current.log");
    fs.symlinkSync(file, link);
    const lines: string[] = [];
    const stop = new AbortController();
    const following = followLogFile(link, fs.statSync(file).size, (line) => lines.push(line), stop.signal, 2);
    fs.appendFileSync(file, "first\nsecond (no newline yet)");
    await expect.poll(() => lines).toEqual(["first"]);
    fs.appendFileSync(file, "\n");
    await expect.poll(() => lines).toEqual(["first", "second (no newline yet)"]);
    // Dozens of polls later the signal holds at most the one listener of the wait in progress.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(getEventListeners(stop.signal, "abort").length).toBeLessThanOrEqual(1);
    stop.abort();
    await following;
    expect(getEventListeners(stop.signal, "abort")).toHaveLength(0);
  });
});
