import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

/*
 * A local server that speaks the parts of the Hugging Face Hub API that `@huggingface/hub` uses,
 * and ModelScope's equivalents, serving repos from folders on disk. One server answers both:
 *
 * Hugging Face (`hubUrl: hub.url`), for `models` and `datasets`:
 *   GET  /api/{models|datasets}/{owner}/{name}[/revision/{rev}]   info with `sha`, `siblings`
 *   GET  /api/{models|datasets}/{owner}/{name}/tree/{rev}[/{path}]?recursive=   oids, sizes, lfs
 *   POST /api/{models|datasets}/{owner}/{name}/paths-info/{rev}    {paths, expand}
 *   GET|HEAD /{owner}/{name}/resolve/{rev}/{path}, /datasets/{owner}/{name}/resolve/...  (Range)
 * ModelScope (`endpoint: hub.url`), for `models` and `datasets`:
 *   GET /api/v1/{models|datasets}/{owner}/{name}                   info
 *   GET /api/v1/{models|datasets}/{owner}/{name}/revisions         branches (master → head)
 *   GET /api/v1/{models|datasets}/{owner}/{name}/repo/files?Revision=&Recursive=
 *   GET /api/v1/{models|datasets}/{owner}/{name}/repo?Revision=&FilePath=   (Range)
 *
 * A revision is a folder snapshot with a 40-hex sha; `main` / `master` / `HEAD` mean the head,
 * which tests move with `pushRevision`. Files that are not small text files are served as LFS
 * (their `lfs.oid` / ModelScope `Sha256` is the sha256 of the content, as on the real hubs).
 */

export type FakeRepoType = "model" | "dataset";

export interface FakeRepoOptions {
  /** `owner/name`. */
  id: string;
  /** Folder whose files are the repo content at this revision. */
  dir: string;
  /** Defaults to `"model"`. */
  type?: FakeRepoType;
  /** Commit sha of the revision. Defaults to a random 40-hex. */
  sha?: string;
}

export interface FakeHubRequest {
  method: string;
  path: string;
  range: string | undefined;
}

interface Revision {
  sha: string;
  dir: string;
  date: string;
}

interface Repo {
  type: FakeRepoType;
  id: string;
  revisions: Revision[];
  head: Revision;
  failStatus: number | null;
}

interface FileFacts {
  size: number;
  sha256: string;
  gitOid: string;
  lfs: boolean;
}

const textFile = /\.(md|json|txt|py|ya?ml|gitattributes|jinja)$/i;

export class FakeHub {
  /** Base URL: the `hubUrl` of `@huggingface/hub` and the ModelScope endpoint. */
  url = "";
  /** Every request, in order (tests assert on Range headers). */
  readonly requests: FakeHubRequest[] = [];
  private readonly server: http.Server;
  private readonly repos = new Map<string, Repo>();
  private readonly facts = new Map<string, FileFacts & { mtimeMs: number }>();
  private dropAfter: number | null = null;
  private chunkDelayMs = 0;

  constructor() {
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch((error: Error) => {
        if (!response.headersSent) json(response, 500, { error: error.message });
        else response.destroy();
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Adds a repo whose head is `dir`; returns the head sha. */
  addRepo(options: FakeRepoOptions): string {
    const type = options.type ?? "model";
    const revision = {
      sha: options.sha ?? randomSha(),
      dir: path.resolve(options.dir),
      date: new Date().toISOString(),
    };
    this.repos.set(key(type, options.id), {
      type,
      id: options.id,
      revisions: [revision],
      head: revision,
      failStatus: null,
    });
    return revision.sha;
  }

  /** Moves the head to a new revision with the content of `dir`; older shas stay reachable. */
  pushRevision(id: string, dir: string, options: { type?: FakeRepoType; sha?: string } = {}): string {
    const repo = this.repo(options.type ?? "model", id);
    const revision = {
      sha: options.sha ?? randomSha(),
      dir: path.resolve(dir),
      date: new Date().toISOString(),
    };
    repo.revisions.push(revision);
    repo.head = revision;
    return revision.sha;
  }

  head(id: string, type: FakeRepoType = "model"): string {
    return this.repo(type, id).head.sha;
  }

  /** Makes every request about the repo answer `status` (null heals it). */
  fail(id: string, status: number | null, type: FakeRepoType = "model"): void {
    this.repo(type, id).failStatus = status;
  }

  /** The next file download is cut (socket destroyed) after `bytes` bytes of body. */
  dropNextDownloadAfter(bytes: number | null): void {
    this.dropAfter = bytes;
  }

  /** Sleeps this long between 64 KiB chunks of file bodies (to catch a download mid-way). */
  setChunkDelay(ms: number): void {
    this.chunkDelayMs = ms;
  }

  private repo(type: FakeRepoType, id: string): Repo {
    const repo = this.repos.get(key(type, id));
    if (!repo) throw new Error(`fake hub: no ${type} repo ${id}`);
    return repo;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://fake");
    const method = request.method ?? "GET";
    const parts = url.pathname.split("/").slice(1).map(decodeURIComponent);
    this.requests.push({ method, path: url.pathname + url.search, range: request.headers.range });

    if (parts[0] === "api" && parts[1] === "v1")
      return this.modelScope(method, parts.slice(2), url, request, response);
    if (parts[0] === "api") return this.hfApi(method, parts.slice(1), url, request, response);
    // /{owner}/{name}/resolve/{rev}/{path}, /datasets/..., and ModelScope's /models/... alias.
    const type: FakeRepoType = parts[0] === "datasets" ? "dataset" : "model";
    const rest = parts[0] === "datasets" || parts[0] === "models" ? parts.slice(1) : parts;
    if ((rest[2] === "resolve" || rest[2] === "raw") && rest.length >= 5) {
      const repo = this.lookup(type, `${rest[0]}/${rest[1]}`, response, "hf");
      if (!repo) return;
      const revision = this.revision(repo, rest[3]);
      if (!revision) return hfError(response, 404, "RevisionNotFound");
      return this.sendFile(revision, rest.slice(4).join("/"), request, response, "hf");
    }
    json(response, 404, { error: "Not found" });
  }

  private async hfApi(
    method: string,
    parts: string[],
    url: URL,
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> {
    const type: FakeRepoType = parts[0] === "datasets" ? "dataset" : "model";
    if (parts[0] !== "models" && parts[0] !== "datasets") return json(response, 404, { error: "Not found" });
    const repo = this.lookup(type, `${parts[1]}/${parts[2]}`, response, "hf");
    if (!repo) return;
    const action = parts[3];
    const revision = this.revision(repo, action === undefined ? "main" : (parts[4] ?? "main"));
    if (!revision) return hfError(response, 404, "RevisionNotFound");
    if (action === undefined || action === "revision") {
      const files = (await this.listing(revision, "", true)) ?? [];
      return json(response, 200, {
        _id: `fake-${repo.id}`,
        id: repo.id,
        sha: revision.sha,
        private: false,
        gated: false,
        disabled: false,
        downloads: 0,
        likes: 0,
        tags: [],
        lastModified: revision.date,
        createdAt: repo.revisions[0].date,
        siblings: files.filter((file) => !file.directory).map((file) => ({ rfilename: file.path })),
        cardData: {},
      });
    }
    if (action === "tree" && method === "GET") {
      const sub = parts.slice(5).join("/");
      const entries = await this.listing(revision, sub, url.searchParams.get("recursive") === "true");
      if (entries === null) return hfError(response, 404, "EntryNotFound");
      const expand = url.searchParams.get("expand") === "true";
      return json(
        response,
        200,
        entries.map((entry) => this.hfEntry(entry, revision, expand)),
      );
    }
    if (action === "paths-info" && method === "POST") {
      const body = JSON.parse((await readBody(request)) || "{}") as { paths?: string[]; expand?: boolean };
      const all = (await this.listing(revision, "", true)) ?? [];
      const wanted = new Set(body.paths ?? []);
      return json(
        response,
        200,
        all
          .filter((entry) => wanted.has(entry.path))
          .map((entry) => this.hfEntry(entry, revision, body.expand ?? false)),
      );
    }
    json(response, 404, { error: "Not found" });
  }

  private hfEntry(entry: ListedEntry, revision: Revision, expand: boolean) {
    const lastCommit = expand
      ? { lastCommit: { id: revision.sha, title: "fake commit", date: revision.date } }
      : {};
    if (entry.directory)
      return { type: "directory", oid: gitOid(entry.path), size: 0, path: entry.path, ...lastCommit };
    const facts = entry.facts!;
    return {
      type: "file",
      oid: facts.gitOid,
      size: facts.size,
      path: entry.path,
      ...(facts.lfs ? { lfs: { oid: facts.sha256, size: facts.size, pointerSize: 134 } } : {}),
      ...lastCommit,
    };
  }

  private async modelScope(
    method: string,
    parts: string[],
    url: URL,
    request: http.IncomingMessage,
    response: http.ServerResponse,
  ): Promise<void> {
    const type: FakeRepoType = parts[0] === "datasets" ? "dataset" : "model";
    const repo = this.lookup(type, `${parts[1]}/${parts[2]}`, response, "modelscope");
    if (!repo || method !== "GET") return;
    const action = parts.slice(3).join("/");
    if (action === "") {
      return msJson(response, {
        Id: 1,
        Name: parts[2],
        Path: parts[1],
        LastUpdatedTime: Date.parse(repo.head.date) / 1000,
      });
    }
    if (action === "revisions") {
      return msJson(response, {
        RevisionMap: { Branches: [{ Revision: "master", CommitId: repo.head.sha }], Tags: [] },
      });
    }
    const revision = this.revision(repo, url.searchParams.get("Revision") ?? "master");
    if (!revision)
      return json(response, 404, { Code: 10010205001, Message: "revision not found", Success: false });
    if (action === "repo/files") {
      const recursive = (url.searchParams.get("Recursive") ?? "false").toLowerCase() === "true";
      const entries = (await this.listing(revision, url.searchParams.get("Root") ?? "", recursive)) ?? [];
      return msJson(response, {
        Files: entries.map((entry) => ({
          Name: path.posix.basename(entry.path),
          Path: entry.path,
          Type: entry.directory ? "tree" : "blob",
          Size: entry.facts?.size ?? 0,
          Sha256: entry.facts?.sha256 ?? "",
          IsLFS: entry.facts?.lfs ?? false,
          Revision: revision.sha,
        })),
      });
    }
    if (action === "repo") {
      return this.sendFile(revision, url.searchParams.get("FilePath") ?? "", request, response, "modelscope");
    }
    json(response, 404, { Code: 404, Message: "Not found", Success: false });
  }

  private lookup(
    type: FakeRepoType,
    id: string,
    response: http.ServerResponse,
    hub: "hf" | "modelscope",
  ): Repo | null {
    const repo = this.repos.get(key(type, id));
    if (!repo) {
      if (hub === "hf") hfError(response, 404, "RepoNotFound");
      else json(response, 404, { Code: 10010205001, Message: "model not found", Success: false });
      return null;
    }
    if (repo.failStatus !== null) {
      json(response, repo.failStatus, { error: "fake hub failure", Code: repo.failStatus, Success: false });
      return null;
    }
    return repo;
  }

  private revision(repo: Repo, name: string): Revision | undefined {
    if (name === "main" || name === "master" || name === "HEAD") return repo.head;
    return repo.revisions.find((revision) => revision.sha === name || revision.sha.startsWith(name));
  }

  private async sendFile(
    revision: Revision,
    filePath: string,
    request: http.IncomingMessage,
    response: http.ServerResponse,
    hub: "hf" | "modelscope",
  ): Promise<void> {
    const absolute = path.join(revision.dir, ...filePath.split("/"));
    const facts = isSafe(filePath) ? await this.fileFacts(absolute).catch(() => null) : null;
    if (!facts) {
      if (hub === "hf") return hfError(response, 404, "EntryNotFound");
      return json(response, 404, { Code: 404, Message: "file not found", Success: false });
    }
    const etag = `"${facts.lfs ? facts.sha256 : facts.gitOid}"`;
    const headers: Record<string, string | number> = {
      "accept-ranges": "bytes",
      "content-type": "application/octet-stream",
      etag,
      "x-repo-commit": revision.sha,
      ...(facts.lfs ? { "x-linked-etag": etag, "x-linked-size": facts.size } : {}),
    };
    let start = 0;
    let end = facts.size - 1;
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? "");
    if (range) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), facts.size - 1) : facts.size - 1;
      if (start >= facts.size && facts.size > 0) {
        response.writeHead(416, { "content-range": `bytes */${facts.size}` }).end();
        return;
      }
      headers["content-range"] = `bytes ${start}-${end}/${facts.size}`;
    }
    headers["content-length"] = Math.max(0, end - start + 1);
    response.writeHead(range ? 206 : 200, headers);
    if (request.method === "HEAD" || facts.size === 0) return void response.end();
    // Only a real body download is cut, not the 1-byte probes clients send first.
    const dropAfter = end - start + 1 > 64 ? this.dropAfter : null;
    if (dropAfter !== null) this.dropAfter = null;
    await this.stream(absolute, start, end, response, dropAfter);
  }

  private async stream(
    file: string,
    start: number,
    end: number,
    response: http.ServerResponse,
    dropAfter: number | null,
  ): Promise<void> {
    let sent = 0;
    for await (const chunk of fs.createReadStream(file, { start, end, highWaterMark: 64 * 1024 })) {
      const buffer = chunk as Buffer;
      if (dropAfter !== null && sent + buffer.length > dropAfter) {
        response.write(buffer.subarray(0, dropAfter - sent));
        await new Promise((resolve) => setTimeout(resolve, 20));
        response.socket?.destroy();
        return;
      }
      if (!response.write(buffer)) await new Promise((resolve) => response.once("drain", resolve));
      sent += buffer.length;
      if (this.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
      if (response.destroyed) return;
    }
    response.end();
  }

  private async listing(revision: Revision, sub: string, recursive: boolean): Promise<ListedEntry[] | null> {
    const root = path.join(revision.dir, ...sub.split("/").filter(Boolean));
    if (!isSafe(sub || "x") || !fs.existsSync(root)) return null;
    const entries: ListedEntry[] = [];
    const walk = async (dir: string, rel: string) => {
      for (const entry of (await fs.promises.readdir(dir, { withFileTypes: true })).sort((a, b) =>
        a.name.localeCompare(b.name),
      )) {
        const entryRel = rel ? `${rel}/${entry.name}` : entry.name;
        const absolute = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          entries.push({ path: entryRel, directory: true });
          if (recursive) await walk(absolute, entryRel);
        } else if (entry.isFile()) {
          entries.push({ path: entryRel, directory: false, facts: await this.fileFacts(absolute) });
        }
      }
    };
    await walk(root, sub.split("/").filter(Boolean).join("/"));
    return entries;
  }

  private async fileFacts(file: string): Promise<FileFacts> {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) throw new Error("not a file");
    const cached = this.facts.get(file);
    if (cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs) return cached;
    const sha256 = crypto.createHash("sha256");
    const sha1 = crypto.createHash("sha1").update(`blob ${stat.size}\0`);
    for await (const chunk of fs.createReadStream(file)) {
      sha256.update(chunk as Buffer);
      sha1.update(chunk as Buffer);
    }
    const facts = {
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      sha256: sha256.digest("hex"),
      gitOid: sha1.digest("hex"),
      lfs: !textFile.test(file),
    };
    this.facts.set(file, facts);
    return facts;
  }
}

interface ListedEntry {
  path: string;
  directory: boolean;
  facts?: FileFacts;
}

/** Starts a fake hub on a free loopback port; `close()` it after the test. */
export async function startFakeHub(): Promise<FakeHub> {
  return new FakeHub().listen();
}

function key(type: FakeRepoType, id: string): string {
  return `${type}:${id}`;
}

function randomSha(): string {
  return crypto.randomBytes(20).toString("hex");
}

function gitOid(text: string): string {
  return crypto.createHash("sha1").update(text).digest("hex");
}

function isSafe(filePath: string): boolean {
  return filePath.length > 0 && filePath.split("/").every((part) => part && part !== "." && part !== "..");
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function msJson(response: http.ServerResponse, data: unknown): void {
  json(response, 200, { Code: 200, Message: "success", Success: true, Data: data });
}

function hfError(response: http.ServerResponse, status: number, code: string): void {
  response
    .writeHead(status, { "content-type": "application/json", "x-error-code": code })
    .end(JSON.stringify({ error: code }));
}

async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
