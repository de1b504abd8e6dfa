import path from "node:path";

/** Where Perch keeps each kind of file under its base path (DESIGN.md, "files on disk"). */
export interface PerchPaths {
  readonly base: string;
  readonly logs: string;
  readonly defaultModels: string;
  readonly datasets: string;
  readonly accuracyResults: string;
  readonly performanceResults: string;
  /** sha256 of model files by path, size and mtime, so an upload does not hash a model twice. */
  readonly performanceFileHashes: string;
  readonly conversations: string;
  /** Prompt cache: saved sequence states, one folder per model (`<model-hash>/`). */
  readonly promptCache: string;
  /** The random id `GET /health` shows, so the CLI can tell this base's server from another. */
  readonly instanceId: string;
  /** Where a running server of this base path listens (`server.json`, while it runs). */
  readonly serverAddress: string;
}

/** The folders under one base path; the only place their names are spelled. */
export function perchPaths(basePath: string): PerchPaths {
  const benchmarks = path.join(basePath, "benchmarks");
  return {
    base: basePath,
    logs: path.join(basePath, "logs"),
    defaultModels: path.join(basePath, "models"),
    datasets: path.join(basePath, "datasets"),
    accuracyResults: path.join(benchmarks, "accuracy", "results"),
    performanceResults: path.join(benchmarks, "performance", "results"),
    performanceFileHashes: path.join(benchmarks, "performance", "file_hashes.json"),
    conversations: path.join(basePath, "conversations"),
    promptCache: path.join(basePath, "cache", "kv"),
    instanceId: path.join(basePath, "instance_id"),
    serverAddress: path.join(basePath, "server.json"),
  };
}
