import fs from "node:fs/promises";
import path from "node:path";
import lockfile from "proper-lockfile";
import type { z } from "zod";
import { PerchError } from "../base/PerchError.js";
import type { HealthRegistry } from "./HealthRegistry.js";
import { KeyedQueue } from "./KeyedQueue.js";
import { moveAsideCorrupt } from "./moveAsideCorrupt.js";
import { writeJsonAtomic } from "./writeJsonAtomic.js";
import { errorMessage } from "../base/describeError.js";

export interface JsonFileOptions<S extends z.ZodType> {
  path: string;
  /** Every read is validated with it, and every write before it touches the disk. */
  schema: S;
  /** The value when the file does not exist yet (or was moved aside as corrupt). */
  empty: () => z.output<S>;
  /** Where a corrupt file is reported. Defaults to `undefined` (logged only). */
  health?: HealthRegistry;
  /**
   * What a file that does not parse or validate becomes: `"move-aside"` (renamed, reported, then
   * treated as absent) or `"refuse"` (left in place; every read throws `describeRefusal`'s error).
   * A file whose defaults are less safe than its content (the API key) must refuse: treating it as
   * absent would open what it closed. Defaults to `"move-aside"`.
   */
  onCorrupt?: "move-aside" | "refuse";
  /** The error a refused file throws, from what was wrong with it. Defaults to a `storage_error`. */
  describeRefusal?: (filePath: string, reason: string) => Error;
}

// Read-modify-write cycles are serialized per path, apart from the write queue itself (which
// `writeJsonAtomic` uses inside a cycle, so sharing one queue would deadlock).
const updateQueue = new KeyedQueue();

/**
 * Across processes (two `perch pull`s, a CLI beside the app) a cycle also holds `<file>.lock`
 * (proper-lockfile: a directory, stale after 10 s if its holder died). A cycle is milliseconds;
 * a waiter retries for up to ~15 s before it gives up with a `storage_error`.
 */
const lockOptions = {
  stale: 10_000,
  realpath: false,
  retries: { retries: 100, factor: 1.2, minTimeout: 10, maxTimeout: 250 },
};

/** What identifies one version of the file on disk: a rename by another process changes it. */
type FileVersion = { ino: number; size: number; mtimeMs: number } | null;

/**
 * One JSON file with a zod schema, cached after the first read. A file that does not parse or
 * validate is moved aside and reported, then treated as absent: it is never silently overwritten.
 */
export class JsonFile<S extends z.ZodType> {
  readonly path: string;
  private readonly options: JsonFileOptions<S>;
  private cached: Promise<z.output<S>> | undefined;
  /** The file as this process last read or wrote it (undefined: not known). */
  private version: FileVersion | undefined;

  constructor(options: JsonFileOptions<S>) {
    this.options = options;
    this.path = path.resolve(options.path);
  }

  /** The current value; treat it as read-only (change it through `update`). */
  read(): Promise<z.output<S>> {
    this.cached ??= this.load();
    const current = this.cached;
    current.catch(() => {
      if (this.cached === current) this.cached = undefined;
    });
    return current;
  }

  /** Whether the file was read already (a reload can then tell what changed). */
  get isCached(): boolean {
    return this.cached !== undefined;
  }

  /** Drops the cache and reads the file again (the admin "reload"). */
  reload(): Promise<z.output<S>> {
    return updateQueue.run(this.path, async () => {
      this.cached = undefined;
      return this.read();
    });
  }

  /** Replaces the whole value. */
  async write(value: z.output<S>): Promise<z.output<S>> {
    return this.update(() => value);
  }

  /**
   * Serialized read-modify-write: `change` gets a private copy to mutate or replace; the result
   * is validated, written atomically, then becomes the cached value.
   */
  update(change: (draft: z.output<S>) => z.output<S> | void): Promise<z.output<S>> {
    return updateQueue.run(this.path, async () => {
      const release = await this.lock();
      try {
        const draft = structuredClone(await this.current());
        const next = change(draft) ?? draft;
        const checked = this.options.schema.safeParse(next);
        if (!checked.success) {
          throw new PerchError("storage_error", `Refusing to write an invalid ${path.basename(this.path)}`, {
            details: checked.error.issues.slice(0, 5),
          });
        }
        await writeJsonAtomic(this.path, checked.data);
        this.version = await fileVersion(this.path);
        this.cached = Promise.resolve(checked.data);
        return checked.data;
      } finally {
        await release().catch(() => undefined);
      }
    });
  }

  private async lock(): Promise<() => Promise<void>> {
    try {
      await fs.mkdir(path.dirname(this.path), { recursive: true });
      return await lockfile.lock(this.path, {
        ...lockOptions,
        lockfilePath: `${this.path}.lock`,
        // The default throws from a timer (the process would die): the write goes ahead either way.
        onCompromised: () => undefined,
      });
    } catch (error) {
      throw new PerchError(
        "storage_error",
        `Could not lock ${path.basename(this.path)} for writing (another Perch process holds it): ${errorMessage(error)}`,
      );
    }
  }

  /**
   * The value an update starts from, under the lock: the cached one unless another process wrote
   * the file since this one read or wrote it; then the file again. A file that changed into
   * something unreadable meanwhile is moved aside (and reported) as on a first read, and this
   * process's value is written back; one that refuses (`onCorrupt: "refuse"`) fails the update.
   */
  private async current(): Promise<z.output<S>> {
    const known = await this.read();
    const now = await fileVersion(this.path);
    if (this.version === undefined || sameVersion(now, this.version) || now === null) return known;
    const text = await fs.readFile(this.path, "utf8").catch(() => undefined);
    if (text === undefined) return known;
    const parsed = parseJson(text, this.options.schema);
    if (parsed.ok) return parsed.value;
    // A file that must not be replaced by what this process remembers (settings.json: someone's
    // hand edit, perhaps of the key) is left as it is, and the write refused.
    if (this.options.onCorrupt === "refuse") {
      throw new PerchError(
        "storage_error",
        `${this.path} was changed into something that cannot be read (${parsed.error}); not writing over it. Repair it, or move it away.`,
        { details: { path: this.path } },
      );
    }
    await moveAsideCorrupt(this.path, parsed.error, this.options.health);
    return known;
  }

  private async load(): Promise<z.output<S>> {
    let text: string;
    try {
      this.version = await fileVersion(this.path);
      text = await fs.readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return this.options.empty();
      if (this.options.onCorrupt === "refuse" && this.options.describeRefusal) {
        throw this.options.describeRefusal(this.path, errorMessage(error));
      }
      throw new PerchError("storage_error", `Could not read ${this.path}: ${errorMessage(error)}`);
    }
    const reason = parseJson(text, this.options.schema);
    if (reason.ok) return reason.value;
    if (this.options.onCorrupt === "refuse") {
      throw (
        this.options.describeRefusal?.(this.path, reason.error) ??
        new PerchError("storage_error", `${this.path} could not be read (${reason.error}).`)
      );
    }
    await moveAsideCorrupt(this.path, reason.error, this.options.health);
    return this.options.empty();
  }
}

async function fileVersion(file: string): Promise<FileVersion> {
  try {
    const { ino, size, mtimeMs } = await fs.stat(file);
    return { ino, size, mtimeMs };
  } catch {
    return null;
  }
}

function sameVersion(left: FileVersion, right: FileVersion): boolean {
  if (left === null || right === null) return left === right;
  return left.ino === right.ino && left.size === right.size && left.mtimeMs === right.mtimeMs;
}

/** Parses and validates JSON text; the error says what was wrong (for the health warning). */
export function parseJson<S extends z.ZodType>(
  text: string,
  schema: S,
): { ok: true; value: z.output<S> } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `invalid JSON: ${errorMessage(error)}` };
  }
  const checked = schema.safeParse(raw);
  if (checked.success) return { ok: true, value: checked.data };
  const issue = checked.error.issues[0];
  return {
    ok: false,
    error: `invalid content at '${issue?.path.join(".") ?? ""}': ${issue?.message ?? "?"}`,
  };
}
