import fs from "node:fs/promises";
import path from "node:path";

export interface TinyGgufOptions {
  /** `general.architecture`. Defaults to `"llama"`. */
  architecture?: string;
  /** `general.name`. Defaults to `"tiny"`. */
  name?: string;
  /** `general.file_type` (7 = Q8_0, 15 = Q4_K_M). Defaults to `7`. */
  fileType?: number;
  /** `<arch>.context_length`. Defaults to `2048`. */
  contextLength?: number;
  /** `<arch>.expert_count`; omitted when unset (a dense model). */
  expertCount?: number;
  /** Tensors (F32, zero-filled); their element counts sum to the parameter count. Defaults to one 4x8. */
  tensors?: { name: string; shape: number[] }[];
  /** Bytes appended after the tensor data, so files of the same header differ in content/size. */
  padding?: number;
}

/**
 * Bytes of a minimal but valid GGUF v3 file (header, metadata, F32 tensors), enough for header
 * readers; not loadable by llama.cpp (no tokenizer). Discovery and catalog tests use it.
 */
export function tinyGgufBytes(options: TinyGgufOptions = {}): Buffer {
  const architecture = options.architecture ?? "llama";
  const metadata: [string, number, Buffer][] = [
    ["general.architecture", 8, str(architecture)],
    ["general.name", 8, str(options.name ?? "tiny")],
    ["general.file_type", 4, u32(options.fileType ?? 7)],
    [`${architecture}.context_length`, 4, u32(options.contextLength ?? 2048)],
  ];
  if (options.expertCount !== undefined)
    metadata.push([`${architecture}.expert_count`, 4, u32(options.expertCount)]);
  const tensors = options.tensors ?? [{ name: "token_embd.weight", shape: [4, 8] }];
  const parts: Buffer[] = [Buffer.from("GGUF"), u32(3), u64(tensors.length), u64(metadata.length)];
  for (const [key, type, value] of metadata) parts.push(str(key), u32(type), value);
  let offset = 0;
  const sizes: number[] = [];
  for (const tensor of tensors) {
    const bytes = tensor.shape.reduce((a, b) => a * b, 1) * 4;
    parts.push(str(tensor.name), u32(tensor.shape.length), ...tensor.shape.map(u64), u32(0), u64(offset));
    sizes.push(bytes);
    offset += align(bytes);
  }
  const header = Buffer.concat(parts);
  const data = Buffer.alloc(offset);
  return Buffer.concat([
    header,
    Buffer.alloc(align(header.length) - header.length),
    data,
    Buffer.alloc(options.padding ?? 0, 7),
  ]);
}

export async function writeTinyGguf(filePath: string, options: TinyGgufOptions = {}): Promise<void> {
  await fs.mkdir(path.dirname(filePath), { recursive: true });
  await fs.writeFile(filePath, tinyGgufBytes(options));
}

function align(length: number): number {
  return Math.ceil(length / 32) * 32;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

function u64(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64LE(BigInt(value));
  return buffer;
}

function str(value: string): Buffer {
  const bytes = Buffer.from(value, "utf8");
  return Buffer.concat([u64(bytes.length), bytes]);
}
