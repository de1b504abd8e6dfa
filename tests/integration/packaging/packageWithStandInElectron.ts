import fs from "node:fs";
import path from "node:path";
import { extractAll } from "@electron/asar";
import { build, Platform, type Configuration } from "electron-builder";
import config from "../../../electron.config.js";

export interface PackagedApp {
  /** `resources/` of the packaged app: `app.asar` and `app.asar.unpacked` as electron-builder wrote them. */
  resources: string;
  /** The archive extracted with @electron/asar into a real folder named `app.asar`, beside a copy of `app.asar.unpacked`. */
  extracted: string;
}

/**
 * The node-llama-cpp prebuilt this machine loads. The mac config ships only the macOS one (and
 * excludes every linux/win one): the test config lets this one back in, and changes nothing else.
 */
export function hostPrebuilt(): string {
  if (process.platform !== "linux") throw new Error("the packaging test packs a linux `dir` target");
  return `node_modules/@node-llama-cpp/linux-${process.arch}/**`;
}

/**
 * An Electron "distribution" with no Electron in it: what electron-builder copies and renames for
 * a linux `dir` target (the executable, `resources/`, and the locale packs it prunes).
 */
function writeStandInElectron(folder: string): void {
  fs.mkdirSync(path.join(folder, "resources"), { recursive: true });
  fs.mkdirSync(path.join(folder, "locales"), { recursive: true });
  for (const locale of ["en-US", "de", "ja", "fr"])
    fs.writeFileSync(path.join(folder, "locales", `${locale}.pak`), "");
  fs.writeFileSync(path.join(folder, "electron"), "#!/bin/sh\necho 'stand-in Electron' >&2\nexit 1\n", {
    mode: 0o755,
  });
}

/**
 * Runs electron-builder with electron.config.ts (the mac app's file set, asar and asarUnpack
 * rules) for a linux `dir` target with a stand-in Electron, then extracts the archive.
 * `work` must lie outside the checkout, so nothing resolves from the repository's node_modules.
 */
export async function packageWithStandInElectron(projectDir: string, work: string): Promise<PackagedApp> {
  const electronDist = path.join(work, "electron-dist");
  writeStandInElectron(electronDist);
  const testConfig: Configuration = {
    ...config,
    electronDist,
    directories: { ...config.directories, output: path.join(work, "out") },
    files: [...(config.files as string[]), hostPrebuilt()],
    linux: { target: "dir", executableName: "perch" },
  };
  await build({
    projectDir,
    targets: Platform.LINUX.createTarget("dir"),
    config: testConfig,
    publish: "never",
  });
  const resources = path.join(work, "out", "linux-unpacked", "resources");
  const extractedResources = path.join(work, "run", "resources");
  const extracted = path.join(extractedResources, "app.asar");
  extractAll(path.join(resources, "app.asar"), extracted);
  fs.cpSync(path.join(resources, "app.asar.unpacked"), path.join(extractedResources, "app.asar.unpacked"), {
    recursive: true,
  });
  return { resources, extracted };
}
