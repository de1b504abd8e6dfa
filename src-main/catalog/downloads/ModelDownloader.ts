import type { RemoteSource } from "../../../src-shared/contracts/catalog.js";

/** A file in a remote repo listing. */
export interface RemoteFileInfo {
  path: string;
  size: number;
  /** sha256 of the content where the hub knows it (LFS files). */
  sha256: string | null;
  /** Commit the listing reports for the file (ModelScope reports one per file). */
  revision: string | null;
}

export interface RemoteListing {
  repo: string;
  /** The resolved commit (a branch name resolved to its sha where the hub says it). */
  revision: string;
  files: RemoteFileInfo[];
}

export interface OpenFileRequest {
  repo: string;
  revision: string;
  path: string;
  /** Byte to start at (a resumed download). */
  offset: number;
  signal: AbortSignal;
}

/**
 * One model hub (Hugging Face, ModelScope) behind the same interface: listing a repo at a
 * revision (update checks and the download picker) and streaming a file from an offset.
 */
export interface ModelDownloader {
  readonly source: RemoteSource;
  /** Lists every file; `revision` defaults to the repo's head. */
  listFiles(repo: string, revision?: string): Promise<RemoteListing>;
  /**
   * Streams a file from `offset`. `start` is where the body really starts: 0 when the server
   * ignored the Range request (the caller then starts over).
   */
  openFile(request: OpenFileRequest): Promise<{ body: ReadableStream<Uint8Array>; start: number }>;
}
