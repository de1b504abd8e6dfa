import { z } from "zod";
import { downloadRequestSchema, type DownloadRequest } from "../contracts/catalog.js";

export const starterModelSchema = z.object({
  /** Shown as is. */
  name: z.string().min(1),
  /** The Hugging Face repository holding the GGUF files. */
  repo: z.string().min(1),
  /** Picked from the repository's listing by the download manager. */
  quant: z.string().min(1),
  /** About this many bytes on disk (the quant's file size, rounded). */
  approximate_bytes: z.number().int().positive(),
  /** SPDX id or the name of the model's own licence. */
  licence: z.string().min(1),
  licence_url: z.url(),
});
export type StarterModel = z.infer<typeof starterModelSchema>;

/**
 * Small, well-known instruct models offered on first run, smallest first: each runs on an 8 GB
 * Mac. Sizes are approximate (Q4_K_M files as published; not re-checked against the Hub here).
 */
export const starterModels: readonly StarterModel[] = [
  {
    name: "Qwen2.5 0.5B Instruct",
    repo: "Qwen/Qwen2.5-0.5B-Instruct-GGUF",
    quant: "Q4_K_M",
    approximate_bytes: 400_000_000,
    licence: "Apache-2.0",
    licence_url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct/blob/main/LICENSE",
  },
  {
    name: "Llama 3.2 1B Instruct",
    repo: "bartowski/Llama-3.2-1B-Instruct-GGUF",
    quant: "Q4_K_M",
    approximate_bytes: 810_000_000,
    licence: "Llama 3.2 Community License",
    licence_url: "https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct/blob/main/LICENSE.txt",
  },
  {
    name: "Qwen2.5 1.5B Instruct",
    repo: "Qwen/Qwen2.5-1.5B-Instruct-GGUF",
    quant: "Q4_K_M",
    approximate_bytes: 1_100_000_000,
    licence: "Apache-2.0",
    licence_url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct/blob/main/LICENSE",
  },
  {
    name: "Gemma 2 2B Instruct",
    repo: "bartowski/gemma-2-2b-it-GGUF",
    quant: "Q4_K_M",
    approximate_bytes: 1_710_000_000,
    licence: "Gemma Terms of Use",
    licence_url: "https://ai.google.dev/gemma/terms",
  },
  {
    name: "Phi-3.5 mini Instruct",
    repo: "bartowski/Phi-3.5-mini-instruct-GGUF",
    quant: "Q4_K_M",
    approximate_bytes: 2_390_000_000,
    licence: "MIT",
    licence_url: "https://huggingface.co/microsoft/Phi-3.5-mini-instruct/blob/main/LICENSE",
  },
];

/** What the download manager is asked for (`POST /admin/api/downloads`). */
export function starterDownloadRequest(model: StarterModel): DownloadRequest {
  return downloadRequestSchema.parse({ source: "hf", repo: model.repo, quant: model.quant });
}
