/** A model found on disk by `discoverModels`. */
export interface DiscoveredModel {
  id: string;
  modelsDir: string;
  /** The file to load: the first shard of a split model. */
  path: string;
  /** Every file of the model, shards in order. */
  files: string[];
  sizeBytes: number;
  /** Newest modification time of the files. */
  mtimeMs: number;
  /** `file`: directly in the models dir; `folder`: in sub-folders (org/repo, LM Studio); `hf_cache`. */
  layout: "file" | "folder" | "hf_cache";
  /** Where a Hugging Face cache snapshot says the file came from. */
  hf?: { repo: string; revision: string; remotePath: string; fileOid: string | null };
}
