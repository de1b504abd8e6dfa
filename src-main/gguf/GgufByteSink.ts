import { GgufValueType } from "./GgufValueType.js";

type ScalarType = Exclude<GgufValueType, typeof GgufValueType.ARRAY>;

/** Growable little-endian byte buffer for the (small) header section. */
export class GgufByteSink {
  #bytes = Buffer.alloc(64 * 1024);
  length = 0;

  #ensure(extra: number): void {
    if (this.length + extra <= this.#bytes.length) return;
    const grown = Buffer.alloc(Math.max(this.#bytes.length * 2, this.length + extra));
    this.#bytes.copy(grown, 0, 0, this.length);
    this.#bytes = grown;
  }

  toBytes(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }

  uint32(value: number): void {
    this.#ensure(4);
    this.#bytes.writeUint32LE(value, this.length);
    this.length += 4;
  }

  uint64(value: bigint): void {
    this.#ensure(8);
    this.#bytes.writeBigUint64LE(value, this.length);
    this.length += 8;
  }

  string(value: string): void {
    const encoded = Buffer.from(value, "utf8");
    this.uint64(BigInt(encoded.length));
    this.#ensure(encoded.length);
    encoded.copy(this.#bytes, this.length);
    this.length += encoded.length;
  }

  zeros(count: number): void {
    this.#ensure(count);
    this.#bytes.fill(0, this.length, this.length + count);
    this.length += count;
  }

  scalar(type: ScalarType, value: string | number | bigint | boolean): void {
    const expect = <T>(kind: string, check: (v: unknown) => v is T): T => {
      if (!check(value)) throw new Error(`GGUF value ${String(value)} is not a ${kind}`);
      return value;
    };
    const isNumber = (v: unknown): v is number => typeof v === "number";
    const isBigint = (v: unknown): v is bigint => typeof v === "bigint";
    const sizes = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 } as const;
    if (type === GgufValueType.STRING)
      return this.string(expect("string", (v): v is string => typeof v === "string"));
    this.#ensure(sizes[type]);
    const at = this.length;
    const b = this.#bytes;
    switch (type) {
      case GgufValueType.UINT8:
        b.writeUint8(expect("number", isNumber), at);
        break;
      case GgufValueType.INT8:
        b.writeInt8(expect("number", isNumber), at);
        break;
      case GgufValueType.UINT16:
        b.writeUint16LE(expect("number", isNumber), at);
        break;
      case GgufValueType.INT16:
        b.writeInt16LE(expect("number", isNumber), at);
        break;
      case GgufValueType.UINT32:
        b.writeUint32LE(expect("number", isNumber), at);
        break;
      case GgufValueType.INT32:
        b.writeInt32LE(expect("number", isNumber), at);
        break;
      case GgufValueType.FLOAT32:
        b.writeFloatLE(expect("number", isNumber), at);
        break;
      case GgufValueType.BOOL:
        b.writeUint8(expect("boolean", (v): v is boolean => typeof v === "boolean") ? 1 : 0, at);
        break;
      case GgufValueType.UINT64:
        b.writeBigUint64LE(expect("bigint", isBigint), at);
        break;
      case GgufValueType.INT64:
        b.writeBigInt64LE(expect("bigint", isBigint), at);
        break;
      case GgufValueType.FLOAT64:
        b.writeDoubleLE(expect("number", isNumber), at);
        break;
      default:
        throw new Error(`Unsupported GGUF value type ${type satisfies never}`);
    }
    this.length += sizes[type];
  }
}
