import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { downloadFile } from "@huggingface/hub";
import { createLogger } from "../../base/createLogger.js";
import { PerchError } from "../../base/PerchError.js";
import type { DatasetReader, DatasetRow } from "./DatasetReader.js";
import type { DatasetSource } from "./DatasetSource.js";
import { readDatasetFile } from "./readDatasetFile.js";
import { errorMessage } from "../../base/describeError.js";

/** Looked up when used: the CLI lowers the log level after modules are loaded. */
const log = () => createLogger("evals");

export interface HubDatasetCacheOptions {
  /** Folder the files are kept in. Perch uses `<basePath>/datasets`. */
  dir: string;
  /** Hub base URL: a mirror, or a local server in tests. Defaults to `https://huggingface.co`. */
  hubUrl?: string;
  /** Read only what is cached; a missing file is an error instead of a download. Defaults to `false`. */
  offline?: boolean;
  /** Hub token, for gated datasets (a function is asked on each download). Defaults to none. */
  accessToken?: string | (() => Promise<string | undefined>);
  /** Fetch to download with (a proxy). Defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

const safeSegment = /^[A-Za-z0-9._-]+$/;

/** `owner/name` and `dir/file.parquet` as path segments that cannot climb out of the cache. */
function safePath(value: string, what: string): string[] {
  const parts = value.split("/");
  if (parts.some((part) => !safeSegment.test(part) || part === "." || part === "..")) {
    throw new PerchError("invalid_id", `unsafe dataset ${what}: ${value}`);
  }
  return parts;
}

/**
 * Benchmark data from the Hugging Face Hub, downloaded on first use and read from disk after:
 * `<dir>/<owner>/<name>/<revision>/<file>`. Revisions are pinned, so a cached file never goes
 * stale. Downloads land in a temp file renamed into place: a cut download leaves no half file.
 */
export class HubDatasetCache implements DatasetReader {
  readonly #options: HubDatasetCacheOptions;
  readonly #downloads = new Map<string, Promise<string>>();

  constructor(options: HubDatasetCacheOptions) {
    this.#options = options;
  }

  async rows(
    source: DatasetSource,
    signal?: AbortSignal,
    options: { offline?: boolean } = {},
  ): Promise<DatasetRow[]> {
    const rows: DatasetRow[] = [];
    for (const file of source.files) {
      signal?.throwIfAborted();
      rows.push(...(await this.#read(source, file, options.offline)));
    }
    return rows;
  }

  /**
   * The rows of one file. A cached file that cannot be read (cut by a crash, a full disk, a bad
   * mirror) would fail every later run: it is moved aside (`<file>.corrupt`) and downloaded once
   * more; a fresh copy that cannot be read either is the Hub's (or the mirror's) fault, said so.
   */
  async #read(source: DatasetSource, file: string, offline = false): Promise<DatasetRow[]> {
    const target = await this.file(source, file, offline);
    const name = `${source.repo}@${source.revision}/${file}`;
    try {
      return await readDatasetFile(target);
    } catch (error) {
      const aside = await this.#setAside(target);
      log().warn({ file: name, aside, error: errorMessage(error) }, "cached benchmark data unreadable");
      if (offline || this.#options.offline) {
        throw new PerchError(
          "not_found",
          `cached dataset file ${name} could not be read (${errorMessage(error)}); it was moved ` +
            `aside to ${aside}. Run without --offline to download it again.`,
        );
      }
    }
    const again = await this.file(source, file);
    try {
      return await readDatasetFile(again);
    } catch (error) {
      const aside = await this.#setAside(again);
      throw new PerchError(
        "upstream_error",
        `${name} as downloaded from ${this.#options.hubUrl ?? "https://huggingface.co"} is not a ` +
          `readable dataset file, twice (${errorMessage(error)}); the copy was moved aside to ${aside}.`,
      );
    }
  }

  async #setAside(target: string): Promise<string> {
    const aside = `${target}.corrupt`;
    await fs.promises.rename(target, aside).catch(() => fs.promises.rm(target, { force: true }));
    return aside;
  }

  /** Where `file` of `source` is cached; downloads it first unless it already is (or `offline`). */
  file(source: DatasetSource, file: string, offline = false): Promise<string> {
    const target = path.join(
      this.#options.dir,
      ...safePath(source.repo, "repo"),
      encodeURIComponent(source.revision),
      ...safePath(file, "file"),
    );
    if (offline && !this.#downloads.has(target) && !fs.existsSync(target)) {
      return Promise.reject(this.#notCached(source, file));
    }
    let pending = this.#downloads.get(target);
    if (!pending) {
      pending = this.#ensure(source, file, target).finally(() => this.#downloads.delete(target));
      this.#downloads.set(target, pending);
    }
    return pending;
  }

  #notCached(source: DatasetSource, file: string): PerchError {
    return new PerchError(
      "not_found",
      `dataset file not cached (offline): ${source.repo}@${source.revision}/${file}`,
    );
  }

  async #ensure(source: DatasetSource, file: string, target: string): Promise<string> {
    if (fs.existsSync(target)) return target;
    const name = `${source.repo}@${source.revision}/${file}`;
    if (this.#options.offline) throw this.#notCached(source, file);
    log().info({ file: name }, "downloading benchmark data");
    let blob: Blob | null;
    try {
      blob = await downloadFile({
        repo: { type: "dataset", name: source.repo },
        path: file,
        revision: source.revision,
        hubUrl: this.#options.hubUrl,
        accessToken:
          typeof this.#options.accessToken === "function"
            ? await this.#options.accessToken()
            : this.#options.accessToken,
        fetch: this.#options.fetch,
      });
    } catch (error) {
      throw new PerchError("upstream_error", `could not download ${name}: ${errorMessage(error)}`);
    }
    if (!blob) throw new PerchError("not_found", `no such dataset file on the Hub: ${name}`);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    try {
      await pipeline(
        Readable.fromWeb(blob.stream() as WebReadableStream<Uint8Array>),
        fs.createWriteStream(partial),
      );
      await fs.promises.rename(partial, target);
    } catch (error) {
      await fs.promises.rm(partial, { force: true });
      throw new PerchError("upstream_error", `download of ${name} failed: ${errorMessage(error)}`);
    }
    return target;
  }
}
