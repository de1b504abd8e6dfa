// Imported by bin/perch.js, which sizes libuv's thread pool first. Runs the compiled CLI (dist/main,
// written by `npm run build`) when it is up to date with the sources. A checkout whose sources changed since (or were never built) runs the TypeScript
// through tsx instead, which only development installs have.
import { mainBuildState } from "../scripts/mainBuildState.js";

if (mainBuildState() === "fresh") {
  await import("../dist/main/src-main/cli/main.js");
} else {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    process.stderr.write(
      "perch: dist/main is missing or older than the sources, and tsx (a dev dependency) is not installed.\n" +
        "Run `npm run build:main` in a full install (`npm ci`), or install with the dev dependencies.\n",
    );
    process.exit(1);
  }
  register();
  await import("../src-main/cli/main.ts");
}
