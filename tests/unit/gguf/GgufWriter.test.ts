import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gguf } from "@huggingface/gguf";
import { afterAll, describe, expect, it } from "vitest";
import { GgmlType } from "../../../src-main/gguf/GgmlType.js";
import { GgufValueType } from "../../../src-main/gguf/GgufValueType.js";
import { GgufWriter } from "../../../src-main/gguf/GgufWriter.js";
import { float16ToFloat32 } from "../../../src-main/gguf/float16ToFloat32.js";
import { float32ToFloat16 } from "../../../src-main/gguf/float32ToFloat16.js";
import { quantizeRowQ8_0 } from "../../../src-main/gguf/quantizeRowQ8_0.js";

const folder = await mkdtemp(join(tmpdir(), "perch-gguf-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

const ramp = (count: number, scale: number): Float32Array =>
  Float32Array.from({ length: count }, (_, i) => (i - Math.floor(count / 3)) * scale);

async function writeSample(): Promise<{ path: string; values: Record<string, Float32Array> }> {
  const values = { f32: ramp(12, 0.5), f16: ramp(16, 0.125), q8: ramp(128, 0.01) };
  const writer = new GgufWriter()
    .set("t.u8", { type: GgufValueType.UINT8, value: 200 })
    .set("t.i8", { type: GgufValueType.INT8, value: -100 })
    .set("t.u16", { type: GgufValueType.UINT16, value: 60000 })
    .set("t.i16", { type: GgufValueType.INT16, value: -30000 })
    .setUint32("t.u32", 4_000_000_000)
    .setInt32("t.i32", -2_000_000_000)
    .setFloat32("t.f32", 0.5)
    .setBool("t.bool", true)
    .setString("t.string", "héllo ✓")
    .set("t.u64", { type: GgufValueType.UINT64, value: 2n ** 60n })
    .set("t.i64", { type: GgufValueType.INT64, value: -(2n ** 60n) })
    .set("t.f64", { type: GgufValueType.FLOAT64, value: Math.PI })
    .setArray("t.strings", GgufValueType.STRING, ["a", "", "Ġb c"])
    .setArray("t.ints", GgufValueType.INT32, [1, -2, 3])
    .setArray("t.floats", GgufValueType.FLOAT32, [0.25, -1.5]);
  // Each tensor's rows arrive in different chunkings to exercise the streaming path.
  writer.addTensor({ name: "f32", shape: [4, 3], type: GgmlType.F32, rows: () => [values.f32] });
  writer.addTensor({
    name: "f16",
    shape: [8, 2],
    type: GgmlType.F16,
    rows: () => [values.f16.subarray(0, 8), values.f16.subarray(8)],
  });
  writer.addTensor({ name: "q8", shape: [64, 2], type: GgmlType.Q8_0, rows: () => [values.q8] });
  const path = join(folder, "sample.gguf");
  await writer.writeToFile(path);
  return { path, values };
}

describe("GgufWriter", () => {
  it("writes metadata of every type that @huggingface/gguf reads back", async () => {
    const { path } = await writeSample();
    const { metadata } = await gguf(path, { allowLocalFile: true });
    const read = metadata as Record<string, unknown>;
    expect(read.version).toBe(3);
    expect(read["general.alignment"]).toBe(32);
    expect(read["t.u8"]).toBe(200);
    expect(read["t.i8"]).toBe(-100);
    expect(read["t.u16"]).toBe(60000);
    expect(read["t.i16"]).toBe(-30000);
    expect(read["t.u32"]).toBe(4_000_000_000);
    expect(read["t.i32"]).toBe(-2_000_000_000);
    expect(read["t.f32"]).toBe(0.5);
    expect(read["t.bool"]).toBe(true);
    expect(read["t.string"]).toBe("héllo ✓");
    expect(read["t.u64"]).toBe(2n ** 60n);
    expect(read["t.i64"]).toBe(-(2n ** 60n));
    expect(read["t.f64"]).toBe(Math.PI);
    expect(read["t.strings"]).toEqual(["a", "", "Ġb c"]);
    expect(read["t.ints"]).toEqual([1, -2, 3]);
    expect(read["t.floats"]).toEqual([0.25, -1.5]);
  });

  it("writes aligned tensor infos and data that decode to the input", async () => {
    const { path, values } = await writeSample();
    const { tensorInfos, tensorDataOffset } = await gguf(path, { allowLocalFile: true });
    expect(tensorInfos.map((info) => [info.name, info.shape.map(Number), info.dtype])).toEqual([
      ["f32", [4, 3], GgmlType.F32],
      ["f16", [8, 2], GgmlType.F16],
      ["q8", [64, 2], GgmlType.Q8_0],
    ]);
    expect(Number(tensorDataOffset) % 32).toBe(0);
    for (const info of tensorInfos) expect(Number(info.offset) % 32).toBe(0);

    const file = await readFile(path);
    const at = (name: string): number =>
      Number(tensorDataOffset + tensorInfos.find((info) => info.name === name)!.offset);
    const f32 = Array.from({ length: 12 }, (_, i) => file.readFloatLE(at("f32") + i * 4));
    expect(f32).toEqual(Array.from(values.f32));
    const f16 = Array.from({ length: 16 }, (_, i) => float16ToFloat32(file.readUint16LE(at("f16") + i * 2)));
    expect(f16).toEqual(Array.from(values.f16)); // multiples of 1/8 are exact in half precision
    const q8: number[] = [];
    for (let block = 0; block < 4; block++) {
      const offset = at("q8") + block * 34;
      const scale = float16ToFloat32(file.readUint16LE(offset));
      for (let i = 0; i < 32; i++) q8.push(file.readInt8(offset + 2 + i) * scale);
    }
    q8.forEach((value, i) => expect(Math.abs(value - values.q8[i])).toBeLessThan(0.01));
    expect(file.length).toBe(at("q8") + 4 * 34 + (32 - ((4 * 34) % 32)));
  });

  it("refuses tensors it cannot encode faithfully", async () => {
    expect(() =>
      new GgufWriter().addTensor({ name: "x", shape: [40, 1], type: GgmlType.Q8_0, rows: () => [] }),
    ).toThrow(/multiple of 32/);
    const writer = new GgufWriter().addTensor({
      name: "x",
      shape: [4, 2],
      type: GgmlType.F32,
      rows: () => [new Float32Array(4)],
    });
    expect(() => writer.addTensor({ name: "x", shape: [1], type: GgmlType.F32, rows: () => [] })).toThrow(
      /Duplicate/,
    );
    await expect(writer.writeToFile(join(folder, "short.gguf"))).rejects.toThrow(/needs 32/);
  });
});

describe("float32ToFloat16", () => {
  it.each([
    [1, 0x3c00],
    [-2, 0xc000],
    [0.1, 0x2e66],
    [65504, 0x7bff],
    [65520, 0x7c00], // rounds up to infinity
    [2 ** -24, 0x0001], // smallest subnormal
    [2 ** -26, 0x0000], // below half of it: zero
    [1 + 2 ** -11, 0x3c00], // tie: to even
    [1 + 3 * 2 ** -11, 0x3c02], // tie: to even (up)
    [Infinity, 0x7c00],
    [-0, 0x8000],
  ])("converts %d to %i", (value, bits) => {
    expect(float32ToFloat16(value)).toBe(bits);
  });

  it("round-trips every finite half value", () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      if ((bits & 0x7c00) === 0x7c00) continue;
      expect(float32ToFloat16(float16ToFloat32(bits))).toBe(bits);
    }
    expect(float32ToFloat16(NaN) & 0x7c00).toBe(0x7c00);
  });
});

describe("quantizeRowQ8_0", () => {
  it("follows ggml: scale = max|x| / 127, round half away from zero", () => {
    const row = Float32Array.from({ length: 32 }, (_, i) => (i === 5 ? -12.7 : i * 0.05));
    const bytes = new Uint8Array(34);
    const dequantized = new Float32Array(32);
    quantizeRowQ8_0(row, bytes, 0, dequantized);
    const view = new DataView(bytes.buffer);
    expect(float16ToFloat32(view.getUint16(0, true))).toBeCloseTo(0.1, 3);
    expect(view.getInt8(2 + 5)).toBe(-127);
    expect(view.getInt8(2 + 31)).toBe(16); // 1.55 / 0.1 = 15.5 → 16
    row.forEach((value, i) => expect(Math.abs(dequantized[i] - value)).toBeLessThanOrEqual(0.0501));
  });
});
