import type { ModelSource } from "../../src-shared/contracts/catalog.js";

/** Web page of a model's source repository, when the source has one. */
export function repoUrl(source: ModelSource, repo: string | null): string | null {
  if (!repo) return null;
  if (source === "hf") return `https://huggingface.co/${repo}`;
  if (source === "modelscope") return `https://www.modelscope.cn/models/${repo}`;
  return null;
}
