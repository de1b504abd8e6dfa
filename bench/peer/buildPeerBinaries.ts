import { execFile, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** Changes whenever the recipe below changes, so an old cache is never reused for a new recipe. */
const recipeVersion = "peer-build-1";

const cmakeFlags = [
  "-DCMAKE_BUILD_TYPE=Release",
  // Generic build: -DGGML_NATIVE=ON crashed with "Illegal instruction" on the shared machines, and the
  // CPU kernels are replaced at run time by node-llama-cpp's own (see peerLibraryDir).
  "-DGGML_NATIVE=OFF",
  "-DGGML_OPENMP=OFF", // node-llama-cpp's ggml-cpu uses ggml's own thread pool, not OpenMP
  "-DBUILD_SHARED_LIBS=ON",
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=OFF",
  "-DLLAMA_BUILD_APP=OFF",
  "-DLLAMA_BUILD_UI=OFF",
  "-DLLAMA_USE_PREBUILT_UI=OFF", // would download the web UI
  "-DLLAMA_OPENSSL=OFF",
];
const targets = ["llama-server", "llama-batched-bench"];

export interface PeerBinaries {
  server: string;
  batchedBench: string;
  /** Directory of the build's own shared libraries (libllama, libggml, ...). */
  buildLibraryDir: string;
  /** The llama.cpp sources: the git bundle inside node-llama-cpp. */
  bundle: string;
  /** The cache folder of this build. */
  root: string;
}

export type PeerBuild = { kind: "ready"; binaries: PeerBinaries } | { kind: "skipped"; reason: string };

export function nodeLlamaCppDir(): string {
  return path.resolve("node_modules/node-llama-cpp");
}

/**
 * Builds llama-server and llama-batched-bench once from the llama.cpp sources that ship inside
 * node-llama-cpp (its `llama/gitRelease.bundle`), into `~/.cache/perch-peer/<hash>` (outside the
 * repository; `PERCH_PEER_CACHE` overrides the parent folder). Skipped, with the reason, where git,
 * cmake or a C++ compiler is missing. The build runs at `nice 10` with two jobs: the CPU is shared.
 */
export async function buildPeerBinaries(log: (line: string) => void): Promise<PeerBuild> {
  const bundle = path.join(nodeLlamaCppDir(), "llama", "gitRelease.bundle");
  if (!fs.existsSync(bundle)) return { kind: "skipped", reason: `no llama.cpp sources at ${bundle}` };
  for (const tool of ["git", "cmake", "c++", "cc"]) {
    if (!(await hasTool(tool))) return { kind: "skipped", reason: `'${tool}' is not installed` };
  }
  const hash = crypto
    .createHash("sha256")
    .update(recipeVersion)
    .update(JSON.stringify(cmakeFlags))
    .update(fs.readFileSync(bundle))
    .digest("hex")
    .slice(0, 16);
  const root = path.join(
    process.env.PERCH_PEER_CACHE ?? path.join(os.homedir(), ".cache", "perch-peer"),
    hash,
  );
  const buildDir = path.join(root, "build");
  const binaries: PeerBinaries = {
    server: path.join(buildDir, "bin", "llama-server"),
    batchedBench: path.join(buildDir, "bin", "llama-batched-bench"),
    buildLibraryDir: path.join(buildDir, "bin"),
    bundle,
    root,
  };
  const done = path.join(root, "built.json");
  if (fs.existsSync(done) && fs.existsSync(binaries.server) && fs.existsSync(binaries.batchedBench)) {
    return { kind: "ready", binaries };
  }
  const source = path.join(root, "src");
  fs.mkdirSync(root, { recursive: true });
  if (!fs.existsSync(path.join(source, ".git"))) {
    fs.rmSync(source, { recursive: true, force: true });
    log(`cloning ${bundle} into ${source}`);
    await run("git", ["clone", "--quiet", bundle, source], root, log);
  }
  const generator = (await hasTool("ninja")) ? ["-G", "Ninja"] : [];
  log(`configuring llama.cpp in ${buildDir}`);
  await run("cmake", ["-S", source, "-B", buildDir, ...generator, ...cmakeFlags], root, log);
  log(`building ${targets.join(", ")} (nice 10, 2 jobs; ~10-20 minutes the first time)`);
  await run(
    "nice",
    ["-n", "10", "cmake", "--build", buildDir, "--config", "Release", "-j", "2", "--target", ...targets],
    root,
    log,
  );
  fs.writeFileSync(
    done,
    `${JSON.stringify({ recipeVersion, cmakeFlags, builtAt: new Date().toISOString() })}\n`,
  );
  return { kind: "ready", binaries };
}

async function hasTool(tool: string): Promise<boolean> {
  try {
    await execFileAsync("sh", ["-c", `command -v ${tool}`]);
    return true;
  } catch {
    return false;
  }
}

/** Runs a build step, keeping the last lines of its output for the error. */
function run(command: string, args: string[], cwd: string, log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const tail: string[] = [];
    let lastProgress = 0;
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > 40) tail.shift();
        // Progress lines now and then, so a long build does not look stuck.
        if (/^\[\d+\/\d+\]|^\[\s*\d+%\]/.test(line) && Date.now() - lastProgress > 30_000) {
          lastProgress = Date.now();
          log(line.slice(0, 160));
        }
      }
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${tail.join("\n")}`));
    });
  });
}
