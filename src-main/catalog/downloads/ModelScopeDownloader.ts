import { z } from "zod";
import { PerchError } from "../../base/PerchError.js";
import type { ModelDownloader, OpenFileRequest, RemoteListing } from "./ModelDownloader.js";
import { toHubError } from "./toHubError.js";

export interface ModelScopeDownloaderOptions {
  /** The ModelScope URL, asked on every call so a settings change applies at once. */
  endpoint: () => Promise<string> | string;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

const filesResponseSchema = z.object({
  Code: z.number().optional(),
  Success: z.boolean().optional(),
  Message: z.string().optional(),
  Data: z
    .object({
      Files: z
        .array(
          z.object({
            Path: z.string(),
            Type: z.string(),
            Size: z.number().optional(),
            Sha256: z.string().nullable().optional(),
            Revision: z.string().nullable().optional(),
          }),
        )
        .nullable(),
    })
    .optional(),
});

/**
 * ModelScope through its HTTP API (what the `modelscope` Python client calls):
 * `/api/v1/models/{repo}/repo/files?Revision=&Recursive=true` to list, `/repo?FilePath=` to
 * download with Range. Its default branch is `master`; each listed file carries a commit id.
 */
export class ModelScopeDownloader implements ModelDownloader {
  readonly source = "modelscope" as const;
  private readonly options: ModelScopeDownloaderOptions;

  constructor(options: ModelScopeDownloaderOptions) {
    this.options = options;
  }

  async listFiles(repo: string, revision = "master"): Promise<RemoteListing> {
    const endpoint = await this.options.endpoint();
    const url = `${endpoint}/api/v1/models/${repo}/repo/files?Revision=${encodeURIComponent(revision)}&Recursive=true`;
    let parsed: z.infer<typeof filesResponseSchema>;
    try {
      const response = await (this.options.fetch ?? fetch)(url, { headers: { accept: "application/json" } });
      if (!response.ok) throw { statusCode: response.status, message: response.statusText };
      parsed = filesResponseSchema.parse(await response.json());
    } catch (error) {
      throw toHubError(error, `ModelScope ${repo}`, "none");
    }
    if (parsed.Success === false || (parsed.Code !== undefined && parsed.Code !== 200)) {
      throw new PerchError("upstream_error", `ModelScope ${repo}: ${parsed.Message ?? "request failed"}`);
    }
    const files = (parsed.Data?.Files ?? [])
      .filter((file) => file.Type === "blob")
      .map((file) => ({
        path: file.Path,
        size: file.Size ?? 0,
        sha256: file.Sha256 ? file.Sha256 : null,
        revision: file.Revision ?? null,
      }));
    // The listing has no repo-level sha: a file's commit id stands for it when there is one.
    const resolved = files.find((file) => file.revision)?.revision ?? revision;
    return { repo, revision: resolved, files };
  }

  async openFile(request: OpenFileRequest): Promise<{ body: ReadableStream<Uint8Array>; start: number }> {
    const endpoint = await this.options.endpoint();
    const url =
      `${endpoint}/api/v1/models/${request.repo}/repo?Revision=${encodeURIComponent(request.revision)}` +
      `&FilePath=${encodeURIComponent(request.path)}`;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, {
        headers: request.offset > 0 ? { range: `bytes=${request.offset}-` } : {},
        signal: request.signal,
      });
    } catch (error) {
      throw toHubError(error, `ModelScope ${request.repo}/${request.path}`, "none");
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw toHubError(
        { statusCode: response.status, message: response.statusText },
        `ModelScope ${request.repo}/${request.path}`,
        "none",
      );
    }
    return { body: response.body, start: response.status === 206 ? request.offset : 0 };
  }
}
