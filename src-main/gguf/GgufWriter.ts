import { open } from "node:fs/promises";
import { GgmlType } from "./GgmlType.js";
import { GgufValueType } from "./GgufValueType.js";
import { GgufByteSink } from "./GgufByteSink.js";
import { encodeTensorValues } from "./encodeTensorValues.js";
import { ggmlByteLength } from "./ggmlByteLength.js";
import { q8_0BlockSize } from "./quantizeRowQ8_0.js";

/** A scalar GGUF metadata value; 64-bit integers are bigints so they round-trip exactly. */
export type GgufScalar =
  | { type: typeof GgufValueType.STRING; value: string }
  | { type: typeof GgufValueType.BOOL; value: boolean }
  | { type: typeof GgufValueType.UINT64 | typeof GgufValueType.INT64; value: bigint }
  | {
      type: Exclude<
        GgufValueType,
        | typeof GgufValueType.STRING
        | typeof GgufValueType.BOOL
        | typeof GgufValueType.UINT64
        | typeof GgufValueType.INT64
        | typeof GgufValueType.ARRAY
      >;
      value: number;
    };

export type GgufArray = {
  type: typeof GgufValueType.ARRAY;
  itemType: Exclude<GgufValueType, typeof GgufValueType.ARRAY>;
  value: readonly (string | number | bigint | boolean)[];
};

export type GgufValue = GgufScalar | GgufArray;

export interface GgufTensorSource {
  name: string;
  /** ggml dimension order: `shape[0]` is the contiguous row length (the input dimension of a matrix). */
  shape: readonly number[];
  type: GgmlType;
  /**
   * Produces the tensor's values in storage order, in chunks that are whole rows; called once, while
   * writing, so a large model never has to exist in memory at once.
   */
  rows: () => Iterable<Float32Array>;
}

export interface GgufWriterOptions {
  /** Data alignment, also written as `general.alignment`. Defaults to `32`. */
  alignment?: number;
  /** Bytes buffered before each write to disk. Defaults to `4 MiB`. */
  bufferBytes?: number;
}

const magic = 0x46554747; // "GGUF" read as a little-endian uint32
const version = 3;

/** Writes GGUF v3 files (little-endian): metadata, tensor infos, aligned tensor data, streamed to disk. */
export class GgufWriter {
  readonly #alignment: number;
  readonly #bufferBytes: number;
  readonly #metadata = new Map<string, GgufValue>();
  readonly #tensors: GgufTensorSource[] = [];

  constructor(options: GgufWriterOptions = {}) {
    this.#alignment = options.alignment ?? 32;
    this.#bufferBytes = options.bufferBytes ?? 4 * 1024 * 1024;
    this.set("general.alignment", { type: GgufValueType.UINT32, value: this.#alignment });
  }

  set(key: string, value: GgufValue): this {
    this.#metadata.set(key, value);
    return this;
  }

  setString(key: string, value: string): this {
    return this.set(key, { type: GgufValueType.STRING, value });
  }

  setUint32(key: string, value: number): this {
    return this.set(key, { type: GgufValueType.UINT32, value });
  }

  setInt32(key: string, value: number): this {
    return this.set(key, { type: GgufValueType.INT32, value });
  }

  setFloat32(key: string, value: number): this {
    return this.set(key, { type: GgufValueType.FLOAT32, value });
  }

  setBool(key: string, value: boolean): this {
    return this.set(key, { type: GgufValueType.BOOL, value });
  }

  setArray(key: string, itemType: GgufArray["itemType"], value: GgufArray["value"]): this {
    return this.set(key, { type: GgufValueType.ARRAY, itemType, value });
  }

  addTensor(tensor: GgufTensorSource): this {
    if (this.#tensors.some((existing) => existing.name === tensor.name))
      throw new Error(`Duplicate tensor name ${tensor.name}`);
    if (tensor.type === GgmlType.Q8_0 && tensor.shape[0] % q8_0BlockSize !== 0)
      throw new Error(
        `${tensor.name}: Q8_0 rows must be a multiple of ${q8_0BlockSize}, got ${tensor.shape[0]}`,
      );
    this.#tensors.push(tensor);
    return this;
  }

  /** Writes the file; returns its size in bytes. */
  async writeToFile(path: string): Promise<number> {
    const file = await open(path, "w");
    try {
      let written = 0;
      await this.write(async (chunk) => {
        let offset = 0;
        while (offset < chunk.byteLength) {
          const { bytesWritten } = await file.write(chunk, offset, chunk.byteLength - offset, written);
          offset += bytesWritten;
          written += bytesWritten;
        }
      });
      return written;
    } finally {
      await file.close();
    }
  }

  /** Streams the encoded file to `sink` in order. */
  async write(sink: (chunk: Uint8Array) => Promise<void>): Promise<void> {
    const header = this.#encodeHeader();
    await sink(header);

    let buffer = Buffer.alloc(this.#bufferBytes);
    let used = 0;
    const flush = async (): Promise<void> => {
      if (used === 0) return;
      // The sink has finished with the bytes once its promise resolves, so the buffer is reused.
      await sink(buffer.subarray(0, used));
      used = 0;
    };
    const reserve = async (bytes: number): Promise<void> => {
      if (used + bytes > buffer.length) await flush();
      if (bytes > buffer.length) buffer = Buffer.alloc(bytes);
    };

    for (const tensor of this.#tensors) {
      const expected = tensorByteLength(tensor);
      const rowLength = tensor.shape[0];
      let tensorBytes = 0;
      for (const chunk of tensor.rows()) {
        if (chunk.length % rowLength !== 0)
          throw new Error(
            `${tensor.name}: chunk of ${chunk.length} values is not whole rows of ${rowLength}`,
          );
        const bytes = ggmlByteLength(tensor.type, chunk.length);
        await reserve(bytes);
        encodeTensorValues(tensor.type, chunk, buffer, used);
        used += bytes;
        tensorBytes += bytes;
      }
      if (tensorBytes !== expected)
        throw new Error(`${tensor.name}: produced ${tensorBytes} bytes, its shape needs ${expected}`);
      const padding = padTo(tensorBytes, this.#alignment) - tensorBytes;
      await reserve(padding);
      buffer.fill(0, used, used + padding);
      used += padding;
    }
    await flush();
  }

  #encodeHeader(): Uint8Array {
    const out = new GgufByteSink();
    out.uint32(magic);
    out.uint32(version);
    out.uint64(BigInt(this.#tensors.length));
    out.uint64(BigInt(this.#metadata.size));
    for (const [key, value] of this.#metadata) {
      out.string(key);
      out.uint32(value.type);
      if (value.type === GgufValueType.ARRAY) {
        out.uint32(value.itemType);
        out.uint64(BigInt(value.value.length));
        for (const item of value.value) out.scalar(value.itemType, item);
      } else out.scalar(value.type, value.value);
    }
    let dataOffset = 0;
    for (const tensor of this.#tensors) {
      out.string(tensor.name);
      out.uint32(tensor.shape.length);
      for (const dimension of tensor.shape) out.uint64(BigInt(dimension));
      out.uint32(tensor.type);
      out.uint64(BigInt(dataOffset));
      dataOffset += padTo(tensorByteLength(tensor), this.#alignment);
    }
    out.zeros(padTo(out.length, this.#alignment) - out.length);
    return out.toBytes();
  }
}

function padTo(length: number, alignment: number): number {
  return Math.ceil(length / alignment) * alignment;
}

function tensorByteLength(tensor: GgufTensorSource): number {
  return ggmlByteLength(
    tensor.type,
    tensor.shape.reduce((product, dimension) => product * dimension, 1),
  );
}
