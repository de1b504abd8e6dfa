import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

/** The repository root (tests/helpers → two levels up). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Real benchmark data kept in the repository (provenance, sha256 and licences in its README). */
export const fixtureDatasetsDir = path.join(repoRoot, "tests/fixtures/datasets");

/**
 * The absolute path of a dataset fixture, by its upstream name (`mbpp.jsonl`) or its stored name
 * (`mbpp.jsonl.gz`): files are kept gzip-compressed, and every reader in the project reads `.gz`.
 */
export function fixtureDataset(name: string): string {
  const stored = name.endsWith(".gz") ? name : `${name}.gz`;
  const file = path.join(fixtureDatasetsDir, stored);
  if (!fs.existsSync(file)) throw new Error(`no dataset fixture ${stored} in ${fixtureDatasetsDir}`);
  return file;
}

/** The uncompressed text of a dataset fixture. */
export function readFixtureText(name: string): string {
  return zlib.gunzipSync(fs.readFileSync(fixtureDataset(name))).toString("utf8");
}

/** The rows of a `.jsonl` fixture, in file order. */
export function readFixtureJsonLines<Row = Record<string, unknown>>(name: string): Row[] {
  return readFixtureText(name)
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Row);
}
