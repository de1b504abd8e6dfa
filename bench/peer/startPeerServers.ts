import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PeerBinaries } from "./buildPeerBinaries.js";
import type { PeerKernels } from "./peerKernels.js";
import { freePort, ServerProcess } from "./ServerProcess.js";

export interface RunningServer {
  name: "perch" | "llama-server";
  url: string;
  model: string;
  process: ServerProcess;
}

/** Both servers serve the same model file with the same sequences, context per sequence and threads. */
export interface ServerShape {
  modelFile: string;
  threads: number;
  sequences: number;
  contextPerSequence: number;
}

/**
 * `perch serve` (through `bin/perch.js`, as a user runs it) on a fresh base folder holding only the
 * model; its default sequences (8) and context (the model's 4096) match `shape`. With `basePath`,
 * on that folder instead, kept as the last run left it (a restart: the prompt cache bench).
 */
export async function startPerch(
  shape: ServerShape,
  options: { basePath?: string } = {},
): Promise<RunningServer & { cleanup: () => void }> {
  const basePath = options.basePath ?? fs.mkdtempSync(path.join(os.tmpdir(), "perch-peer-"));
  const models = path.join(basePath, "models");
  const link = path.join(models, path.basename(shape.modelFile));
  fs.mkdirSync(models, { recursive: true });
  if (!fs.existsSync(link)) fs.symlinkSync(shape.modelFile, link);
  const model = path.basename(shape.modelFile).replace(/\.gguf$/, "");
  fs.writeFileSync(
    path.join(basePath, "model_settings.json"),
    JSON.stringify({
      version: 1,
      models: {
        [model]: { max_concurrent_requests: shape.sequences, context_size: shape.contextPerSequence },
      },
    }),
  );
  const server = ServerProcess.start("perch", process.execPath, [
    "bin/perch.js",
    "serve",
    "--base-path",
    basePath,
    "--port",
    "0",
    "--threads",
    String(shape.threads),
    "--log-level",
    "warn",
    "--no-starter-model",
  ]);
  let url = "";
  await server.waitUntil(async () => {
    url = /serving at (http:\/\/\S+)/.exec(server.printed())?.[1] ?? "";
    return url !== "";
  }, 120_000);
  return {
    name: "perch",
    url,
    model,
    process: server,
    cleanup: () => fs.rmSync(basePath, { recursive: true, force: true }),
  };
}

/** llama-server from the bundled sources, on node-llama-cpp's kernels (`kernels.libraryPath`). */
export async function startLlamaServer(
  binaries: PeerBinaries,
  kernels: PeerKernels,
  shape: ServerShape,
): Promise<RunningServer> {
  const port = await freePort();
  const server = ServerProcess.start(
    "llama-server",
    binaries.server,
    [
      "-m",
      shape.modelFile,
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "-t",
      String(shape.threads),
      "-tb",
      String(shape.threads),
      "-np",
      String(shape.sequences),
      "-c",
      String(shape.sequences * shape.contextPerSequence),
      "--no-webui",
    ],
    { ...process.env, LD_LIBRARY_PATH: kernels.libraryPath },
  );
  const url = `http://127.0.0.1:${port}`;
  await server.waitUntil(async () => (await fetch(`${url}/health`)).ok, 120_000);
  return { name: "llama-server", url, model: path.basename(shape.modelFile), process: server };
}
