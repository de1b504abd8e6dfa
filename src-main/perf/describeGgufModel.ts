import { GgufFileType, type GgufFileInfo } from "node-llama-cpp";

export interface GgufModelFacts {
  /** `general.name`, else the fallback (the model id without folders). */
  name: string;
  /** e.g. `Q4_K_M`, from `general.file_type`; null when the header has none. */
  quantization: string | null;
  /** Sum of every tensor's element count; null when tensor info was not read. */
  parameterCount: number | null;
  /** `<arch>.context_length`; null when absent. */
  trainContextSize: number | null;
}

/** Header keys with large arrays that describing a model never needs (faster header reads). */
export const ggufKeysNotNeeded = [
  "tokenizer.ggml.tokens",
  "tokenizer.ggml.scores",
  "tokenizer.ggml.token_type",
  "tokenizer.ggml.merges",
];

/** What the community payload and the result say about a model, read from its GGUF header. */
export function describeGgufModel(info: GgufFileInfo, fallbackName: string): GgufModelFacts {
  const general = info.metadata.general;
  const fileType = general?.file_type;
  const quantization =
    fileType === undefined
      ? null
      : (GgufFileType[fileType] ?? String(fileType)).replace(/^(MOSTLY|ALL)_/, "");
  const tensors = info.fullTensorInfo ?? info.tensorInfo;
  const parameterCount = tensors
    ? Number(
        tensors.reduce(
          (sum, tensor) =>
            sum + tensor.dimensions.reduce<bigint>((product, size) => product * BigInt(size), 1n),
          0n,
        ),
      )
    : null;
  const contextLength = info.architectureMetadata?.context_length;
  const name =
    typeof general?.name === "string" && general.name.trim().length > 0 ? general.name.trim() : fallbackName;
  return {
    name: name.slice(0, 256),
    quantization,
    parameterCount,
    trainContextSize: typeof contextLength === "number" && contextLength > 0 ? contextLength : null,
  };
}

/** The last path segment of a model id (ids may contain folders; no paths leave the machine). */
export function baseModelName(modelId: string): string {
  return modelId.split(/[\\/]/).filter(Boolean).pop() ?? modelId;
}
