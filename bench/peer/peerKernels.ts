import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { PeerBinaries } from "./buildPeerBinaries.js";

const execFileAsync = promisify(execFile);

/** Asks each of node-llama-cpp's CPU variants for its score on this CPU, as ggml's loader does. */
const pickerSource = `#include <dlfcn.h>
#include <stdio.h>
typedef int (*score_fn)(void);
int main(int argc, char ** argv) {
    int best = 0; const char * chosen = NULL;
    for (int i = 1; i < argc; i++) {
        void * handle = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
        if (!handle) continue;
        score_fn score = (score_fn) dlsym(handle, "ggml_backend_score");
        int value = score ? score() : 0;
        if (value > best) { best = value; chosen = argv[i]; }
    }
    if (!chosen) return 1;
    printf("%s\\n", chosen);
    return 0;
}
`;

export interface PeerKernels {
  /** LD_LIBRARY_PATH for llama-server and llama-batched-bench. */
  libraryPath: string;
  /** e.g. "libggml-cpu-sapphirerapids.so", or why the build's own kernels are used. */
  description: string;
  sameKernelsAsPerch: boolean;
}

/**
 * Makes llama-server run node-llama-cpp's own ggml CPU kernels: a folder where `libggml-base.so.0`
 * is node-llama-cpp's `libggml-base.so` and `libggml-cpu.so.0` the `libggml-cpu-<variant>.so` its
 * loader picks on this CPU (the variant with the highest `ggml_backend_score()`), ahead of the
 * build's own libraries. Elsewhere than Linux x64, the build's generic kernels are used and the
 * report says so.
 */
export async function preparePeerKernels(binaries: PeerBinaries): Promise<PeerKernels> {
  const cacheRoot = binaries.root;
  const own = {
    libraryPath: binaries.buildLibraryDir,
    sameKernelsAsPerch: false,
  };
  const bins = path.resolve(`node_modules/@node-llama-cpp/${process.platform}-${process.arch}/bins`);
  const dir = fs.existsSync(bins)
    ? fs
        .readdirSync(bins)
        .map((name) => path.join(bins, name))
        .find((candidate) => fs.existsSync(path.join(candidate, "libggml-base.so")))
    : undefined;
  if (!dir)
    return {
      ...own,
      description: `build's own generic kernels (no node-llama-cpp CPU libraries at ${bins})`,
    };
  const variants = fs
    .readdirSync(dir)
    .filter((name) => /^libggml-cpu-.+\.so$/.test(name))
    .map((name) => path.join(dir, name));
  const picker = path.join(cacheRoot, "pick-cpu-variant");
  if (!fs.existsSync(picker)) {
    fs.writeFileSync(`${picker}.c`, pickerSource);
    await execFileAsync("cc", ["-O1", "-o", picker, `${picker}.c`, "-ldl"]);
  }
  let chosen: string;
  try {
    const { stdout } = await execFileAsync(picker, variants, {
      env: { ...process.env, LD_LIBRARY_PATH: dir },
    });
    chosen = stdout.trim();
  } catch {
    return { ...own, description: "build's own generic kernels (no node-llama-cpp CPU variant loads here)" };
  }
  const linked = path.join(cacheRoot, "kernels");
  fs.rmSync(linked, { recursive: true, force: true });
  fs.mkdirSync(linked, { recursive: true });
  for (const name of ["libggml-base.so", "libggml-base.so.0"]) {
    fs.symlinkSync(path.join(dir, "libggml-base.so"), path.join(linked, name));
  }
  fs.symlinkSync(chosen, path.join(linked, "libggml-cpu.so.0"));
  return {
    libraryPath: `${linked}:${binaries.buildLibraryDir}`,
    description: `node-llama-cpp's ${path.basename(chosen)} and libggml-base.so`,
    sameKernelsAsPerch: true,
  };
}
