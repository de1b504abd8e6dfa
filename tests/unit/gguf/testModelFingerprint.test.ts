import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatorFingerprint } from "../../helpers/testModels.js";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "perch-fingerprint-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the generated test models' cache key", () => {
  it("changes with the generator's code and with the training corpus it reads", async () => {
    for (const folder of ["src-main/testModel", "src-main/gguf"])
      fs.mkdirSync(path.join(root, folder), { recursive: true });
    const write = (file: string, text: string) => fs.writeFileSync(path.join(root, file), text);
    write("src-main/testModel/testTokenizer.ts", "export const a = 1;\n");
    write("src-main/testModel/trainingCorpus.txt", "The quick brown fox.\n");
    write("src-main/gguf/GgufWriter.ts", "export const b = 2;\n");
    const first = await generatorFingerprint(root);
    expect(await generatorFingerprint(root)).toBe(first);

    write("src-main/testModel/trainingCorpus.txt", "The quick brown fox jumps.\n");
    const corpusChanged = await generatorFingerprint(root);
    expect(corpusChanged).not.toBe(first);

    write("src-main/gguf/GgufWriter.ts", "export const b = 3;\n");
    expect(await generatorFingerprint(root)).not.toBe(corpusChanged);
  });
});
