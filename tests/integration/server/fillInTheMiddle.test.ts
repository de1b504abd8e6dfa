import path from "node:path";
import { getLlama, LlamaCompletion, type LlamaModel } from "node-llama-cpp";
import { Ollama } from "ollama";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";
import { ensureFimTestModel } from "../../helpers/testModels.js";

let server: TestServer;
let openai: OpenAI;
let fimId: string;
let reference: LlamaModel;

const prefix = "def add(a, b):\n    ";
const suffix = "\n    return total\n";
const maxTokens = 12;

beforeAll(async () => {
  const fimPath = await ensureFimTestModel();
  server = await startTestServer({}, [fimPath]);
  fimId = path.basename(fimPath).replace(/\.gguf$/, "");
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
  const llama = await getLlama({
    gpu: false,
    build: "never",
    logLevel: "warn" as never,
    progressLogs: false,
  });
  reference = await llama.loadModel({ modelPath: fimPath });
});
afterAll(async () => {
  await reference?.dispose();
  await server?.close();
});

/** node-llama-cpp's own infill on the same model, greedy: what the server must answer. */
async function referenceInfill(before: string, after: string): Promise<string> {
  const context = await reference.createContext({ contextSize: 1024, threads: 1 });
  try {
    const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
    return await completion.generateInfillCompletion(before, after, { maxTokens, temperature: 0 });
  } finally {
    await context.dispose();
  }
}

/** The prompt a FIM model sees: <fim_prefix> prefix <fim_suffix> suffix <fim_middle>. */
const infillPromptTokens = (before: string, after: string) =>
  3 +
  reference.tokenize(before, false, "trimLeadingSpace").length +
  reference.tokenize(after, false, "trimLeadingSpace").length;

/** A greedy, non-streaming `/v1/completions` on the FIM model; without `suffix` a plain completion. */
const complete = (before: string, after?: string) =>
  openai.completions.create({
    model: fimId,
    prompt: before,
    ...(after === undefined ? {} : { suffix: after }),
    max_tokens: maxTokens,
    temperature: 0,
  });

describe("fill-in-the-middle (suffix) through the openai SDK", () => {
  it("fills the gap on a model with FIM tokens: node-llama-cpp's infill output, on its prefix-suffix-middle prompt", async () => {
    const expected = await referenceInfill(prefix, suffix);
    const completion = await complete(prefix, suffix);
    expect(completion.choices[0].text).toBe(expected);
    expect(completion.usage!.prompt_tokens).toBe(infillPromptTokens(prefix, suffix));
    // Without the suffix it is another prompt (no FIM tokens), so the suffix really took part.
    const plain = await complete(prefix);
    expect(plain.usage!.prompt_tokens).toBe(reference.tokenize(prefix, false, "trimLeadingSpace").length);
    expect(plain.choices[0].text).not.toBe(expected);

    const stream = await openai.completions.create({
      model: fimId,
      prompt: prefix,
      suffix,
      max_tokens: maxTokens,
      temperature: 0,
      stream: true,
    });
    let streamed = "";
    for await (const chunk of stream) streamed += chunk.choices[0]?.text ?? "";
    expect(streamed).toBe(expected);
  });

  it("keeps the prompt cache and slot routing right: infill and plain prompts never borrow each other's tokens", async () => {
    const before = "class Stack:\n    def push(self, item):\n        ";
    const after = "\n        self.items.append(item)\n";
    const expectedInfill = await referenceInfill(before, after);
    const plainFirst = await complete(before);
    const infill = await complete(before, after);
    const infillAgain = await complete(before, after);
    const plainAgain = await complete(before);
    expect(infill.choices[0].text).toBe(expectedInfill);
    expect(infillAgain.choices[0].text).toBe(expectedInfill);
    expect(plainAgain.choices[0].text).toBe(plainFirst.choices[0].text);
    // The repeated infill reuses its own cached prefix (all but the last prompt token).
    expect(infillAgain.usage!.prompt_tokens_details?.cached_tokens).toBe(infill.usage!.prompt_tokens - 1);
    // Another suffix after the same prefix: the cached prefix-and-suffix tokens do not answer for it.
    const otherSuffix = "\n        return None\n";
    const other = await complete(before, otherSuffix);
    expect(other.choices[0].text).toBe(await referenceInfill(before, otherSuffix));
  });

  it("gives the same infill with lookup speculation on (a FIM prompt is plain tokens to the predictor)", async () => {
    const expected = await referenceInfill(prefix, suffix);
    await server.putModelSettings({ speculative: { mode: "lookup", maxDraftTokens: 6 } }, fimId);
    try {
      await server.core.engine.unload(fimId);
      const completion = await complete(prefix, suffix);
      expect(completion.choices[0].text).toBe(expected);
      // Perch's usage extension: speculation really ran for the infill prompt.
      const usage = completion.usage as unknown as { perch?: { speculative?: unknown } };
      expect(usage.perch?.speculative).toBeDefined();
    } finally {
      await server.putModelSettings({}, fimId);
      await server.core.engine.unload(fimId);
    }
  });

  it("refuses a prefix and suffix longer than the context with a 400 instead of cutting them", async () => {
    const long = Array.from({ length: 3000 }, (_, index) => `w${index}`).join(" ");
    const error = await openai.completions
      .create({ model: fimId, prompt: prefix, suffix: long, max_tokens: 4 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe("context_length_exceeded");
    const after = await openai.completions.create({ model: fimId, prompt: prefix, suffix, max_tokens: 2 });
    expect(after.choices[0].text).toBeTypeOf("string");
  });

  it("refuses a suffix with a 400 naming it on a model without FIM tokens; an empty suffix is a plain completion", async () => {
    const error = await openai.completions
      .create({ model: server.mainModelId, prompt: prefix, suffix, max_tokens: 4 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    const refused = error as InstanceType<typeof OpenAI.BadRequestError>;
    expect(refused.status).toBe(400);
    expect(refused.code).toBe("invalid_request");
    expect(refused.param).toBe("suffix");
    expect(refused.message).toContain("fill-in-the-middle");
    const empty = await openai.completions.create({
      model: server.mainModelId,
      prompt: prefix,
      suffix: "",
      max_tokens: 4,
    });
    expect(empty.choices[0].text).toBeTypeOf("string");
  });
});

describe("fill-in-the-middle through the ollama npm client", () => {
  it("generates with a suffix on a FIM model (the same infill) and refuses it on another with a 400", async () => {
    const ollama = new Ollama({ host: server.url });
    const filled = await ollama.generate({
      model: fimId,
      prompt: prefix,
      suffix,
      options: { temperature: 0, num_predict: maxTokens },
    });
    expect(filled.response).toBe(await referenceInfill(prefix, suffix));
    expect(filled.prompt_eval_count).toBe(infillPromptTokens(prefix, suffix));
    const refused = await ollama
      .generate({ model: server.mainModelId, prompt: prefix, suffix })
      .catch((caught: unknown) => caught as { status_code: number; error: string });
    expect(refused).toMatchObject({ status_code: 400 });
    expect((refused as { error: string }).error).toContain("suffix");
  });
});
