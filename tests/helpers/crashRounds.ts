import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { z } from "zod";
import { performanceResultSchema } from "../../src-shared/contracts/performance.js";
import { catalogFileSchema } from "../../src-shared/contracts/catalog.js";
import { accuracyResultSchema } from "../../src-shared/contracts/accuracy.js";
import {
  globalSettingsSchema,
  modelProfilesFileSchema,
  modelSettingsFileSchema,
} from "../../src-shared/contracts/settings.js";
import { seededRandom, type Random } from "../../src-main/base/seededRandom.js";
import { tinyGgufBytes } from "./writeTinyGguf.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Bundles `crashChild.ts` with its dependencies into one file under `.tmp/` (esbuild, which tsx
 * already brings): it starts in about half a second, where tsx would take several.
 */
export async function buildCrashChild(): Promise<string> {
  const outfile = path.join(repositoryRoot, ".tmp", "hardening", `crashChild-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(repositoryRoot, "tests/helpers/crashChild.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    logLevel: "error",
    // CommonJS dependencies inside an ES module bundle still use require() and __filename.
    banner: {
      js: [
        "import { createRequire as __createRequire } from 'node:module';",
        "import { fileURLToPath as __fileURLToPath } from 'node:url';",
        "const require = __createRequire(import.meta.url);",
        "const __filename = __fileURLToPath(import.meta.url);",
        "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
      ].join("\n"),
    },
  });
  return outfile;
}

interface Child {
  process: ChildProcessWithoutNullStreams;
  ready: Promise<void>;
  exited: Promise<void>;
  onLine: (listener: (line: string) => void) => void;
}

function spawnChild(bundle: string): Child {
  const child = spawn(process.execPath, [bundle], {
    env: { ...process.env, PERCH_LOG_LEVEL: "fatal" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const listeners: ((line: string) => void)[] = [];
  const lines = readline.createInterface({ input: child.stdout });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  lines.on("line", (line) => listeners.forEach((listener) => listener(line)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    listeners.push((line) => line === "ready" && resolve());
    void exited.then(() => reject(new Error(`crash child exited before it was ready: ${stderr}`)));
  });
  ready.catch(() => undefined);
  return { process: child, ready, exited, onLine: (listener) => listeners.push(listener) };
}

const schemaOf = (relative: string): z.ZodType | undefined => {
  if (relative === "settings.json") return globalSettingsSchema;
  if (relative === "model_settings.json") return modelSettingsFileSchema;
  if (relative === "model_profiles.json") return modelProfilesFileSchema;
  if (relative === "model_catalog.json") return catalogFileSchema;
  if (relative.startsWith("benchmarks/performance/results/")) return performanceResultSchema;
  if (relative.startsWith("benchmarks/accuracy/results/")) return accuracyResultSchema;
  return undefined;
};

export interface FolderCheck {
  /** Files that are torn, invalid, moved aside or unexpected. */
  problems: string[];
  /** write-file-atomic temp files a kill left (`<name>.json.<n>`): never read as data. */
  tempFiles: string[];
  results: { performance: Set<string>; accuracy: number };
}

/**
 * Checks every file under the base folder (models excepted): each JSON file parses and matches
 * its schema (a result also its file name), nothing was moved aside as corrupt, and anything else
 * is a temp file whose name no reader takes for data.
 */
export function checkBaseFolder(basePath: string): FolderCheck {
  const check: FolderCheck = {
    problems: [],
    tempFiles: [],
    results: { performance: new Set(), accuracy: 0 },
  };
  const visit = (relative: string) => {
    const absolute = path.join(basePath, relative);
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const name = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (name !== "models") visit(name);
        continue;
      }
      if (name === "instance_id") {
        // The base path's id (settings/instanceId.ts): written once with O_EXCL, never rewritten.
        if (!/^[0-9a-f]{32}\n$/.test(fs.readFileSync(path.join(absolute, entry.name), "utf8"))) {
          check.problems.push(`${name}: not a 32-hex-digit instance id`);
        }
        continue;
      }
      if (name === "server.json") {
        // The address a server recorded for the CLI (settings/serverAddress.ts), written atomically.
        const record = JSON.parse(fs.readFileSync(path.join(absolute, entry.name), "utf8")) as Record<
          string,
          unknown
        >;
        if (typeof record.url !== "string" || typeof record.pid !== "number") {
          check.problems.push(`${name}: not a server address record`);
        }
        continue;
      }
      if (name.includes(".corrupt-")) {
        check.problems.push(`${name}: a file was moved aside as corrupt`);
        continue;
      }
      if (/\.json\.\d+$/.test(name)) {
        check.tempFiles.push(name);
        continue;
      }
      const schema = name.endsWith(".json") ? schemaOf(name) : undefined;
      if (!schema) {
        check.problems.push(`${name}: unexpected file`);
        continue;
      }
      let value: unknown;
      try {
        value = JSON.parse(fs.readFileSync(path.join(basePath, name), "utf8"));
      } catch (error) {
        check.problems.push(`${name}: does not parse (${(error as Error).message})`);
        continue;
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        check.problems.push(`${name}: invalid (${parsed.error.issues[0]?.message})`);
        continue;
      }
      if (name.startsWith("benchmarks/")) {
        const resultId = path.basename(name, ".json");
        if ((value as { result_id?: string }).result_id !== resultId) {
          check.problems.push(`${name}: holds another result`);
        } else if (name.includes("/performance/")) check.results.performance.add(resultId);
        else check.results.accuracy += 1;
      }
    }
  };
  visit("");
  return check;
}

export interface CrashRoundsOptions {
  basePath: string;
  rounds: number;
  seed: number;
  /** Longest delay before SIGKILL, after the child listens (or, one round in five, after "go"). Defaults to 400 ms. */
  maxKillDelayMs?: number;
}

export interface CrashReport {
  rounds: number;
  /** Rounds killed before the child was listening (during start-up reads). */
  killedDuringStartup: number;
  /** Admin API writes answered 2xx before the kills. */
  adminWrites: number;
  /** Results the child announced as written. */
  resultsWritten: number;
  problems: string[];
  tempFilesLeft: number;
  wallMs: number;
}

async function waitFor(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 2));
}

const tagPool = ["fast", "MoE", "Dense", "coding", " spaced ", "UPPER", "upper", "x".repeat(80)];

/** One admin write chosen at random (all of them are valid requests that write a file). */
async function adminWrite(baseUrl: string, random: Random, basePath: string): Promise<boolean> {
  const send = (method: string, url: string, body: unknown) =>
    fetch(`${baseUrl}${url}`, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const n = Math.floor(random() * 1000);
  const roll = random();
  let response: Response;
  if (roll < 0.25) {
    const tags = tagPool.filter(() => random() < 0.4);
    response = await send("PUT", "/admin/api/models/tiny-a/settings", { tags, max_queue: n });
  } else if (roll < 0.45) {
    response = await send("PUT", "/admin/api/settings", {
      default_ttl_seconds: n,
      community_upload_enabled: n % 2 === 0,
    });
  } else if (roll < 0.55) {
    response = await send("PUT", `/admin/api/models/tiny-a/profiles/p${n % 5}`, {
      settings: { max_queue: n },
    });
  } else if (roll < 0.65) {
    response = await send("PUT", `/admin/api/templates/t${n % 5}`, { settings: { ttl_seconds: n } });
  } else if (roll < 0.85) {
    // Another model appears or disappears, so the rescan rewrites the catalog.
    const other = path.join(basePath, "models", "tiny-b.gguf");
    if (fs.existsSync(other)) fs.rmSync(other, { force: true });
    else fs.writeFileSync(other, tinyGgufBytes({ name: "b", padding: n }));
    response = await send("POST", "/admin/api/rescan", {});
  } else if (roll < 0.93) {
    response = await send("POST", "/admin/api/bench/accuracy/results/reset", {});
  } else {
    const list = (await (await fetch(`${baseUrl}/admin/api/bench/accuracy/results?limit=3`)).json()) as {
      results: { result_id: string }[];
    };
    const victim = list.results[0]?.result_id ?? "acc-none";
    response = await fetch(`${baseUrl}/admin/api/bench/accuracy/results/${victim}`, { method: "DELETE" });
  }
  await response.arrayBuffer();
  return response.ok;
}

/**
 * Kills a server process with SIGKILL at seeded random moments while it writes results,
 * settings, profiles, templates and the catalog, then checks the base folder after every kill:
 * every file whole or absent, and every result the child announced as written still there.
 */
export async function runCrashRounds(bundle: string, options: CrashRoundsOptions): Promise<CrashReport> {
  const started = performance.now();
  const random = seededRandom(options.seed);
  const { basePath } = options;
  fs.mkdirSync(path.join(basePath, "models"), { recursive: true });
  fs.writeFileSync(path.join(basePath, "models", "tiny-a.gguf"), tinyGgufBytes({ name: "a" }));
  const report: CrashReport = {
    rounds: 0,
    killedDuringStartup: 0,
    adminWrites: 0,
    resultsWritten: 0,
    problems: [],
    tempFilesLeft: 0,
    wallMs: 0,
  };
  // Announced as on disk and not being deleted: must survive any kill.
  const durable = new Set<string>();
  // Two children warm up (import everything) while a round runs.
  const warm: Child[] = [spawnChild(bundle), spawnChild(bundle)];
  try {
    for (let round = 0; round < options.rounds; round += 1) {
      const child = warm.shift()!;
      warm.push(spawnChild(bundle));
      await child.ready;
      let port = 0;
      child.onLine((line) => {
        const [word, value] = line.split(" ");
        if (word === "port") port = Number(value);
        else if (word === "added") {
          durable.add(value!);
          report.resultsWritten += 1;
        } else if (word === "deleting") durable.delete(value!);
      });
      child.process.stdin.write(
        `${JSON.stringify({ basePath, seed: options.seed * 1000 + round, modelId: "tiny-a" })}\n`,
      );
      let killed = false;
      const writers = Array.from({ length: 3 }, async () => {
        await waitFor(() => killed || port !== 0);
        while (!killed) {
          const ok = await adminWrite(`http://127.0.0.1:${port}`, random, basePath).catch(() => false);
          if (ok && !killed) report.adminWrites += 1;
        }
      });
      // One round in five dies during start-up (reading, maybe moving files aside); the rest
      // while the writes run, at a random moment after the server listens.
      const duringStartup = random() < 0.2;
      const delay = random() * (options.maxKillDelayMs ?? 400);
      if (duringStartup) await new Promise((resolve) => setTimeout(resolve, delay / 2));
      else {
        await Promise.race([child.exited, waitFor(() => port !== 0)]);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
      if (port === 0) report.killedDuringStartup += 1;
      child.process.kill("SIGKILL");
      killed = true;
      await child.exited;
      await Promise.all(writers);
      report.rounds += 1;

      const check = checkBaseFolder(basePath);
      for (const problem of check.problems) report.problems.push(`round ${round}: ${problem}`);
      for (const resultId of durable) {
        if (!check.results.performance.has(resultId)) {
          report.problems.push(`round ${round}: result ${resultId} was announced as written but is gone`);
        }
      }
      report.tempFilesLeft = check.tempFiles.length;
    }
  } finally {
    for (const child of warm) child.process.kill("SIGKILL");
    await Promise.all(warm.map((child) => child.exited));
  }
  report.wallMs = performance.now() - started;
  return report;
}

/** Starts one more child on the folder and hands its base URL to `use`, then stops it. */
export async function withCrashChild<T>(
  bundle: string,
  basePath: string,
  use: (baseUrl: string) => Promise<T>,
): Promise<T> {
  const child = spawnChild(bundle);
  try {
    await child.ready;
    const port = new Promise<number>((resolve) =>
      child.onLine((line) => line.startsWith("port ") && resolve(Number(line.slice(5)))),
    );
    child.process.stdin.write(`${JSON.stringify({ basePath, seed: 0, modelId: "tiny-a", write: false })}\n`);
    return await use(`http://127.0.0.1:${await port}`);
  } finally {
    child.process.kill("SIGKILL");
    await child.exited;
  }
}
