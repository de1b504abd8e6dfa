#!/usr/bin/env node
// Runs the compiled CLI (dist/main, written by `npm run build`) when it is up to date with the
// sources. A checkout whose sources changed since (or were never built) runs the TypeScript
// through tsx instead, which only development installs have.
import { mainBuildState } from "../scripts/mainBuildState.js";

if (mainBuildState() === "fresh") {
  await import("../dist/main/src-main/cli/main.js");
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src-main/cli/main.ts");
}
