import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gguf } from "@huggingface/gguf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GgmlType } from "../../../src-main/gguf/GgmlType.js";
import { makeTestModel, testModelFileName } from "../../../src-main/testModel/makeTestModel.js";
import { makeTestModelFiles } from "../../../src-main/testModel/makeTestModelFiles.js";
import { testModelShapes, type TestModelVariant } from "../../../src-main/testModel/testModelShapes.js";

const folder = await mkdtemp(join(tmpdir(), "perch-test-model-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

const paths: Record<string, string> = {};
beforeAll(async () => {
  for (const variant of ["test", "draft"] as const) {
    paths[variant] = join(folder, testModelFileName(variant));
    await makeTestModel({ variant, outputPath: paths[variant] });
  }
});

const sha256 = async (path: string): Promise<string> =>
  createHash("sha256")
    .update(await readFile(path))
    .digest("hex");

function expectedTensors(variant: TestModelVariant): [string, number[], number][] {
  const s = testModelShapes[variant];
  const d = s.embeddingLength;
  const kv = (d / s.headCount) * s.headCountKv;
  const tensors: [string, number[], number][] = [["token_embd.weight", [d, 1024], GgmlType.Q8_0]];
  for (let layer = 0; layer < s.blockCount; layer++) {
    const name = (suffix: string): string => `blk.${layer}.${suffix}.weight`;
    tensors.push(
      [name("attn_norm"), [d], GgmlType.F32],
      [name("attn_q"), [d, d], GgmlType.Q8_0],
      [name("attn_k"), [d, kv], GgmlType.Q8_0],
      [name("attn_v"), [d, kv], GgmlType.Q8_0],
      [name("attn_output"), [d, d], GgmlType.Q8_0],
      [name("ffn_norm"), [d], GgmlType.F32],
      [name("ffn_gate"), [d, s.feedForwardLength], GgmlType.Q8_0],
      [name("ffn_up"), [d, s.feedForwardLength], GgmlType.Q8_0],
      [name("ffn_down"), [s.feedForwardLength, d], layer < 2 ? GgmlType.F16 : GgmlType.Q8_0],
    );
  }
  tensors.push(["output_norm.weight", [d], GgmlType.F32], ["output.weight", [d, 1024], GgmlType.Q8_0]);
  return tensors;
}

describe.each(["test", "draft"] as const)("generated %s model", (variant) => {
  it("has LLaMA metadata llama.cpp needs, a gpt2 tokenizer and a ChatML template", async () => {
    const { metadata } = await gguf(paths[variant], { allowLocalFile: true });
    const m = metadata as Record<string, unknown>;
    const s = testModelShapes[variant];
    expect(m["general.architecture"]).toBe("llama");
    expect(m["general.name"]).toMatch(/random weights/);
    expect(m["general.alignment"]).toBe(32);
    expect(m["llama.context_length"]).toBe(4096);
    expect(m["llama.embedding_length"]).toBe(s.embeddingLength);
    expect(m["llama.block_count"]).toBe(s.blockCount);
    expect(m["llama.feed_forward_length"]).toBe(s.feedForwardLength);
    expect(m["llama.attention.head_count"]).toBe(s.headCount);
    expect(m["llama.attention.head_count_kv"]).toBe(s.headCountKv);
    expect(m["llama.rope.dimension_count"]).toBe(s.embeddingLength / s.headCount);
    expect(m["llama.rope.freq_base"]).toBe(1_000_000);
    expect(m["llama.attention.layer_norm_rms_epsilon"]).toBeCloseTo(1e-6, 12);
    expect(m["llama.vocab_size"]).toBe(1024);
    expect(m["tokenizer.ggml.model"]).toBe("gpt2");
    expect(m["tokenizer.ggml.pre"]).toBe("qwen2");
    const tokens = m["tokenizer.ggml.tokens"] as string[];
    expect(tokens).toHaveLength(1024);
    expect(m["tokenizer.ggml.token_type"]).toHaveLength(1024);
    expect((m["tokenizer.ggml.merges"] as string[]).length).toBeGreaterThan(700);
    expect(tokens[m["tokenizer.ggml.eos_token_id"] as number]).toBe("<|im_end|>");
    expect(tokens[m["tokenizer.ggml.bos_token_id"] as number]).toBe("<|endoftext|>");
    expect(m["tokenizer.ggml.add_bos_token"]).toBe(false);
    expect(m["tokenizer.chat_template"]).toMatch(/<\|im_start\|>.*add_generation_prompt/s);
  });

  it("has exactly the LLaMA tensors, in ggml dimension order", async () => {
    const { tensorInfos } = await gguf(paths[variant], { allowLocalFile: true });
    expect(tensorInfos.map((info) => [info.name, info.shape.map(Number), info.dtype])).toEqual(
      expectedTensors(variant),
    );
  });
});

describe("test model generation", () => {
  it("is deterministic: same seed, same bytes; another seed, other bytes", async () => {
    const again = join(folder, "again.gguf");
    const other = join(folder, "other.gguf");
    await makeTestModel({ variant: "test", outputPath: again });
    await makeTestModel({ variant: "test", outputPath: other, seed: "another seed" });
    expect(await sha256(again)).toBe(await sha256(paths.test));
    expect(await sha256(other)).not.toBe(await sha256(paths.test));
  });

  it("makeTestModelFiles writes the files once and keeps up-to-date ones", async () => {
    const models = join(folder, "models");
    const first = await makeTestModelFiles(models);
    expect(first).toEqual({
      main: join(models, "perch-test-model-random-weights.Q8_0.gguf"),
      draft: join(models, "perch-test-draft-random-weights.Q8_0.gguf"),
      realistic: undefined,
    });
    expect(await sha256(first.main)).toBe(await sha256(paths.test));
    const before = (await stat(first.main)).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await makeTestModelFiles(models, { draft: false });
    expect((await stat(first.main)).mtimeMs).toBe(before);
    await makeTestModelFiles(models, { draft: false, force: true });
    expect((await stat(first.main)).mtimeMs).toBeGreaterThan(before);
  });
});

describe("generated fill-in-the-middle model", () => {
  it("has FIM control tokens and the GGUF keys llama.cpp reads; the other variants have neither", async () => {
    const path = join(folder, testModelFileName("fim"));
    await makeTestModel({ variant: "fim", outputPath: path });
    const m = (await gguf(path, { allowLocalFile: true })).metadata as Record<string, unknown>;
    const tokens = m["tokenizer.ggml.tokens"] as string[];
    const types = m["tokenizer.ggml.token_type"] as number[];
    expect(tokens).toHaveLength(1024);
    for (const [key, text] of [
      ["tokenizer.ggml.fim_pre_token_id", "<|fim_prefix|>"],
      ["tokenizer.ggml.fim_suf_token_id", "<|fim_suffix|>"],
      ["tokenizer.ggml.fim_mid_token_id", "<|fim_middle|>"],
    ] as const) {
      const id = m[key] as number;
      expect(tokens[id]).toBe(text);
      expect(types[id]).toBe(3); // control
    }
    // `perch models make-test-model --fim` writes it beside the others (the same bytes).
    const files = await makeTestModelFiles(join(folder, "with-fim"), { draft: false, fim: true });
    expect(files.fim).toBe(join(folder, "with-fim", "perch-test-fim-model-random-weights.Q8_0.gguf"));
    expect(await sha256(files.fim!)).toBe(await sha256(path));
    const plain = (await gguf(paths.test, { allowLocalFile: true })).metadata as Record<string, unknown>;
    expect(Object.keys(plain).filter((key) => key.includes("fim"))).toEqual([]);
    expect((plain["tokenizer.ggml.tokens"] as string[]).filter((token) => token.includes("fim"))).toEqual([]);
  });
});
