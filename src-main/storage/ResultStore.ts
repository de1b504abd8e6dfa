import fs from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { resultIdPattern } from "../../src-shared/contracts/results.js";
import { PerchError } from "../base/PerchError.js";
import { createLogger } from "../base/createLogger.js";
import type { HealthRegistry } from "./HealthRegistry.js";
import { parseJson } from "./JsonFile.js";
import { fileWriteQueue } from "./KeyedQueue.js";
import { moveAsideCorrupt } from "./moveAsideCorrupt.js";
import { writeJsonAtomic } from "./writeJsonAtomic.js";
import { errorMessage } from "../base/describeError.js";

const log = createLogger("storage");

/** What every stored result has; the stores' schemas extend it. */
export interface ResultCore {
  result_id: string;
  created_at: string;
  model_id: string;
}

export interface ResultChange {
  type: "added" | "replaced" | "deleted" | "reset";
  result_ids: string[];
  /** Models whose summaries may have changed. */
  model_ids: string[];
}

export interface ResultStoreOptions<S extends z.ZodType<ResultCore>> {
  /** Folder holding one `<result_id>.json` per result. */
  dir: string;
  schema: S;
  /** Used in messages ("accuracy result 'x' not found"). Defaults to `"result"`. */
  label?: string;
  /** Where unreadable files are reported. Defaults to `undefined` (logged only). */
  health?: HealthRegistry;
}

/** Throws `invalid_id` (400) unless `id` is a well-formed result id. */
export function assertResultId(id: string): void {
  if (!resultIdPattern.test(id)) {
    throw new PerchError("invalid_id", `Invalid result id '${id.slice(0, 140)}'.`, { param: "result_id" });
  }
}

/**
 * Benchmark results, one file per result (so a corrupt file costs one result, and two writers
 * never rewrite a shared list). Read once into memory; every change is written atomically and
 * announced to listeners (the catalog recomputes its summaries).
 */
export class ResultStore<S extends z.ZodType<ResultCore>> {
  readonly dir: string;
  private readonly options: ResultStoreOptions<S>;
  private loaded: Promise<Map<string, z.output<S>>> | undefined;
  /** The folder's mtime when it was last read: another process's result changes it. */
  private listedAt: number | undefined;
  private syncing: Promise<void> | undefined;
  private readonly listeners = new Set<(change: ResultChange) => void>();

  constructor(options: ResultStoreOptions<S>) {
    this.options = options;
    this.dir = path.resolve(options.dir);
  }

  private get label(): string {
    return this.options.label ?? "result";
  }

  /** Results, newest first, optionally of one model. */
  async list(filter: { model_id?: string } = {}): Promise<z.output<S>[]> {
    const results = [...(await this.all()).values()].filter(
      (result) => filter.model_id === undefined || result.model_id === filter.model_id,
    );
    return results.sort(
      (a, b) => b.created_at.localeCompare(a.created_at) || b.result_id.localeCompare(a.result_id),
    );
  }

  /** Catches up with the folder (another process's results), sending their change events. */
  async refresh(): Promise<void> {
    await this.all();
  }

  async get(resultId: string): Promise<z.output<S>> {
    assertResultId(resultId);
    const result = (await this.all()).get(resultId);
    if (!result) throw new PerchError("result_not_found", `No ${this.label} with id '${resultId}'.`);
    return result;
  }

  /** Stores a new result; `conflict` if the id is taken. */
  async add(result: z.input<S>): Promise<z.output<S>> {
    return this.save(result, false);
  }

  /** Stores a result, replacing one with the same id (e.g. its upload status changed). */
  async put(result: z.input<S>): Promise<z.output<S>> {
    return this.save(result, true);
  }

  async delete(resultId: string): Promise<void> {
    const result = await this.get(resultId);
    const results = await this.all();
    await this.removeFile(resultId);
    results.delete(resultId);
    this.emit({ type: "deleted", result_ids: [resultId], model_ids: [result.model_id] });
  }

  /** Deletes every result (or every result of one model); returns how many. */
  async reset(filter: { model_id?: string } = {}): Promise<number> {
    const doomed = await this.list(filter);
    const results = await this.all();
    for (const result of doomed) {
      await this.removeFile(result.result_id);
      results.delete(result.result_id);
    }
    if (doomed.length > 0) {
      this.emit({
        type: "reset",
        result_ids: doomed.map((result) => result.result_id),
        model_ids: [...new Set(doomed.map((result) => result.model_id))],
      });
    }
    return doomed.length;
  }

  /** Called after every change; returns a function that removes the listener. */
  onChange(listener: (change: ResultChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async save(input: z.input<S>, replace: boolean): Promise<z.output<S>> {
    const checked = this.options.schema.safeParse(input);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new PerchError(
        "invalid_request",
        `Invalid ${this.label}: ${issue?.path.join(".")} ${issue?.message}`,
        {
          details: checked.error.issues.slice(0, 10),
        },
      );
    }
    const result = checked.data;
    assertResultId(result.result_id);
    const results = await this.all();
    const previous = results.get(result.result_id);
    if (previous && !replace) {
      throw new PerchError("conflict", `A ${this.label} with id '${result.result_id}' already exists.`);
    }
    await writeJsonAtomic(this.fileOf(result.result_id), result);
    results.set(result.result_id, result);
    const modelIds = new Set([result.model_id, ...(previous ? [previous.model_id] : [])]);
    this.emit({
      type: previous ? "replaced" : "added",
      result_ids: [result.result_id],
      model_ids: [...modelIds],
    });
    return result;
  }

  private fileOf(resultId: string): string {
    return path.join(this.dir, `${resultId}.json`);
  }

  private async removeFile(resultId: string): Promise<void> {
    const file = this.fileOf(resultId);
    await fileWriteQueue.run(file, () => fs.rm(file, { force: true }));
  }

  /**
   * The results, read once and then kept in step with the folder: when its mtime moved (a result
   * another process saved or deleted, e.g. `perch eval run --dataset` beside a running server),
   * the new files are read and the gone ones dropped, with the change events a save would send.
   */
  private async all(): Promise<Map<string, z.output<S>>> {
    this.loaded ??= this.load();
    const results = await this.loaded;
    this.syncing ??= this.sync(results).finally(() => (this.syncing = undefined));
    await this.syncing;
    return results;
  }

  private async load(): Promise<Map<string, z.output<S>>> {
    const results = new Map<string, z.output<S>>();
    this.listedAt = await this.folderTime();
    for (const resultId of await this.resultIds()) {
      const result = await this.readResult(resultId);
      if (result) results.set(resultId, result);
    }
    return results;
  }

  private async sync(results: Map<string, z.output<S>>): Promise<void> {
    const time = await this.folderTime();
    if (time === this.listedAt) return;
    this.listedAt = time;
    const ids = new Set(await this.resultIds());
    const gone = [...results.values()].filter((result) => !ids.has(result.result_id));
    for (const result of gone) results.delete(result.result_id);
    if (gone.length > 0) {
      this.emit({
        type: "deleted",
        result_ids: gone.map((result) => result.result_id),
        model_ids: [...new Set(gone.map((result) => result.model_id))],
      });
    }
    for (const resultId of ids) {
      if (results.has(resultId)) continue;
      const result = await this.readResult(resultId);
      if (!result) continue;
      results.set(resultId, result);
      this.emit({ type: "added", result_ids: [resultId], model_ids: [result.model_id] });
    }
  }

  private async folderTime(): Promise<number | undefined> {
    return (await fs.stat(this.dir).catch(() => undefined))?.mtimeMs;
  }

  /** Ids of the result files in the folder (another name is logged and left alone). */
  private async resultIds(): Promise<string[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new PerchError("storage_error", `Could not list ${this.dir}: ${errorMessage(error)}`);
    }
    const ids: string[] = [];
    for (const name of names.filter((entry) => entry.endsWith(".json")).sort()) {
      const resultId = name.slice(0, -".json".length);
      if (resultIdPattern.test(resultId)) ids.push(resultId);
      else log.warn({ file: path.join(this.dir, name) }, "ignoring a file whose name is not a result id");
    }
    return ids;
  }

  /** One result file, validated; a damaged one is moved aside and reported (undefined). */
  private async readResult(resultId: string): Promise<z.output<S> | undefined> {
    const file = this.fileOf(resultId);
    const text = await fs.readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    const parsed = parseJson(text, this.options.schema);
    const reason = !parsed.ok
      ? parsed.error
      : parsed.value.result_id !== resultId
        ? `result_id '${parsed.value.result_id}' does not match the file name`
        : undefined;
    if (parsed.ok && reason === undefined) return parsed.value;
    await moveAsideCorrupt(file, reason ?? "unreadable", this.options.health);
    return undefined;
  }

  private emit(change: ResultChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        log.error({ err: errorMessage(error) }, "result change listener failed");
      }
    }
  }
}
