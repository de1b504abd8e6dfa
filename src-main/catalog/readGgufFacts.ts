import { gguf, ggufAllShards, GGMLFileQuantizationType, parseGGUFQuantLabel } from "@huggingface/gguf";
import type { GgufFacts } from "../../src-shared/contracts/catalog.js";

/**
 * Reads architecture, parameter count, quantization, context length and expert count from the
 * GGUF header of a local model (only the header is read, however big the file). For a split
 * model the parameter count spans all shards.
 */
export async function readGgufFacts(filePath: string, shardCount = 1): Promise<GgufFacts> {
  let metadata: Record<string, unknown>;
  let parameterCount: number;
  if (shardCount > 1) {
    const all = await ggufAllShards(filePath, { allowLocalFile: true });
    metadata = all.shards[0].metadata as Record<string, unknown>;
    parameterCount = all.parameterCount;
  } else {
    const parsed = await gguf(filePath, { allowLocalFile: true, computeParametersCount: true });
    metadata = parsed.metadata as Record<string, unknown>;
    parameterCount = parsed.parameterCount;
  }
  const architecture = asString(metadata["general.architecture"]);
  const fileType = asNumber(metadata["general.file_type"]);
  const quantization =
    (fileType !== null ? GGMLFileQuantizationType[fileType] : undefined) ??
    parseGGUFQuantLabel(filePath.split(/[\\/]/).pop() ?? "") ??
    null;
  return {
    architecture,
    parameter_count: parameterCount > 0 ? parameterCount : null,
    quantization,
    context_length: architecture ? asNumber(metadata[`${architecture}.context_length`]) : null,
    expert_count: architecture ? asNumber(metadata[`${architecture}.expert_count`]) : null,
    name: asString(metadata["general.name"]),
  };
}

function asString(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

function asNumber(value: unknown): number | null {
  if (typeof value === "bigint") return Number(value);
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
