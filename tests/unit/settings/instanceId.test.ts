import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensureInstanceId, readInstanceId } from "../../../src-main/settings/instanceId.js";

const folders: string[] = [];
const base = () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "perch-instance-"));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

describe("the base folder's instance id", () => {
  it("is made once and kept; a damaged file (it holds only a random id) is replaced", () => {
    const folder = base();
    const id = ensureInstanceId(folder);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(ensureInstanceId(folder)).toBe(id);
    fs.writeFileSync(path.join(folder, "instance_id"), "[1,2,3]");
    const fresh = ensureInstanceId(folder);
    expect(fresh).not.toBe(id);
    expect(readInstanceId(folder)).toBe(fresh);
  });

  it("refuses with a storage_error naming the file when a folder stands in its place (not a stack trace)", () => {
    const folder = base();
    fs.mkdirSync(path.join(folder, "instance_id"));
    expect(() => ensureInstanceId(folder)).toThrow(
      expect.objectContaining({ code: "storage_error", message: expect.stringContaining("instance_id") }),
    );
  });
});
