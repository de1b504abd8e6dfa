import { downloadFile, listFiles, modelInfo } from "@huggingface/hub";
import type { ModelDownloader, OpenFileRequest, RemoteFileInfo, RemoteListing } from "./ModelDownloader.js";
import { type HubAuth, toHubError } from "./toHubError.js";

export interface HuggingFaceDownloaderOptions {
  /** The Hub (or mirror) URL, asked on every call so a settings change applies at once. */
  endpoint: () => Promise<string> | string;
  /**
   * Token for gated/private repos, asked on every call so a token saved in the settings applies
   * at once. Defaults to `$HF_TOKEN`.
   */
  accessToken?: () => Promise<string | undefined> | string | undefined;
}

const commitPattern = /^[0-9a-f]{40}$/;

/** Hugging Face through the official `@huggingface/hub` client (its `hubUrl` takes mirrors). */
export class HuggingFaceDownloader implements ModelDownloader {
  readonly source = "hf" as const;
  private readonly options: HuggingFaceDownloaderOptions;

  constructor(options: HuggingFaceDownloaderOptions) {
    this.options = options;
  }

  private async credentials(): Promise<{ accessToken?: string }> {
    const token = this.options.accessToken ? await this.options.accessToken() : process.env.HF_TOKEN;
    return token ? { accessToken: token } : {};
  }

  /** What a refusal's advice says: a token was sent, or one could be set. */
  private async auth(): Promise<HubAuth> {
    return (await this.credentials()).accessToken ? "token" : "anonymous";
  }

  async listFiles(repo: string, revision?: string): Promise<RemoteListing> {
    const hubUrl = await this.options.endpoint();
    try {
      // Resolve a branch to its commit first, so the listing and the downloads agree.
      const sha =
        revision && commitPattern.test(revision)
          ? revision
          : (
              await modelInfo({
                name: repo,
                hubUrl,
                revision,
                additionalFields: ["sha"],
                ...(await this.credentials()),
              })
            ).sha;
      const files: RemoteFileInfo[] = [];
      for await (const entry of listFiles({
        repo: { type: "model", name: repo },
        revision: sha,
        recursive: true,
        hubUrl,
        ...(await this.credentials()),
      })) {
        if (entry.type !== "file") continue;
        files.push({
          path: entry.path,
          size: entry.lfs?.size ?? entry.size,
          sha256: entry.lfs?.oid ?? null,
          revision: sha,
        });
      }
      return { repo, revision: sha, files };
    } catch (error) {
      throw toHubError(error, `Hugging Face ${repo}`, await this.auth());
    }
  }

  async openFile(request: OpenFileRequest): Promise<{ body: ReadableStream<Uint8Array>; start: number }> {
    const hubUrl = await this.options.endpoint();
    const signalled: typeof fetch = (input, init) => fetch(input, { ...init, signal: request.signal });
    let blob: Blob | null;
    try {
      blob = await downloadFile({
        repo: { type: "model", name: request.repo },
        path: request.path,
        revision: request.revision,
        hubUrl,
        fetch: signalled,
        // Plain HTTP with Range requests: resumable, and what every mirror serves.
        xet: false,
        ...(await this.credentials()),
      });
    } catch (error) {
      throw toHubError(error, `Hugging Face ${request.repo}/${request.path}`, await this.auth());
    }
    if (!blob)
      throw toHubError(
        { statusCode: 404, message: "no such file" },
        `Hugging Face ${request.repo}/${request.path}`,
        await this.auth(),
      );
    // The client's blob turns a slice into a `Range: bytes=<offset>-` request.
    return { body: blob.slice(request.offset).stream() as ReadableStream<Uint8Array>, start: request.offset };
  }
}
