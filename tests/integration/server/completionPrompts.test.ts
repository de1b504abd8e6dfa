import { OpenAI as LangChainOpenAI } from "@langchain/openai";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { BpeTokenizer } from "../../../src-main/testModel/BpeTokenizer.js";
import { testTokenizer } from "../../../src-main/testModel/testTokenizer.js";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();
const tokenizer = new BpeTokenizer(testTokenizer());

const greedy = { max_tokens: 8, temperature: 0 } as const;

/** One prompt alone: the reference each listed prompt's choices must equal. */
async function alone(prompt: string | number[]) {
  const reply = await perch.openai.completions.create({ model: perch.server.mainModelId, prompt, ...greedy });
  return { text: reply.choices[0]!.text, usage: reply.usage! };
}

describe("/v1/completions prompt lists and token prompts (OpenAI's prompt shapes)", () => {
  it("answers a list of prompts with n choices each, in order, usage summed over the prompts", async () => {
    const prompts = ["The sea", "A cat sat", "Once upon a time there"];
    const reply = await perch.openai.completions.create({
      model: perch.server.mainModelId,
      prompt: prompts,
      n: 2,
      ...greedy,
    });
    expect(reply.choices.map((choice) => choice.index)).toEqual([0, 1, 2, 3, 4, 5]);
    const references: Awaited<ReturnType<typeof alone>>[] = [];
    for (const prompt of prompts) references.push(await alone(prompt));
    reply.choices.forEach((choice, index) => {
      expect(choice.text).toBe(references[Math.floor(index / 2)]!.text);
    });
    expect(reply.usage!.prompt_tokens).toBe(
      references.reduce((sum, one) => sum + one.usage.prompt_tokens, 0),
    );
    expect(reply.usage!.completion_tokens).toBe(
      2 * references.reduce((sum, one) => sum + one.usage.completion_tokens, 0),
    );
  });

  it("reads the model's special tokens in a text prompt, as llama-server does (a hand-written chat template)", async () => {
    // Was split into plain text: "<|im_start|>" alone was 10 tokens, so a template written by hand
    // (here, or Ollama's raw mode) reached the model as chopped-up text.
    const text = "<|im_start|>user\nHello there<|im_end|>\n<|im_start|>assistant\n";
    const byText = await alone(text);
    const byTokens = await alone(tokenizer.encode(text));
    expect(byText.usage.prompt_tokens).toBe(byTokens.usage.prompt_tokens);
    expect(byText.text).toBe(byTokens.text);
  });

  it("takes token ids, one list or several, as the tokens of the same text", async () => {
    const text = "Hello there, friend";
    const tokens = tokenizer.encode(text);
    const reference = await alone(text);
    const one = await alone(tokens);
    expect(one.text).toBe(reference.text);
    expect(one.usage.prompt_tokens).toBe(reference.usage.prompt_tokens);
    const other = tokenizer.encode("The sea");
    const listed = await perch.openai.completions.create({
      model: perch.server.mainModelId,
      prompt: [tokens, other],
      ...greedy,
    });
    expect(listed.choices.map((choice) => choice.text)).toEqual([
      reference.text,
      (await alone("The sea")).text,
    ]);
    // Streamed alike.
    const stream = await perch.openai.completions.create({
      model: perch.server.mainModelId,
      prompt: tokens,
      stream: true,
      ...greedy,
    });
    let streamed = "";
    for await (const chunk of stream) streamed += chunk.choices[0]?.text ?? "";
    expect(streamed).toBe(reference.text);
  });

  it("refuses what it cannot answer with a 400 naming the field", async () => {
    const refused = async (body: Record<string, unknown>) => {
      const error = await perch.openai.completions
        .create({ model: perch.server.mainModelId, max_tokens: 4, ...body } as never)
        .catch((caught: unknown) => caught);
      expect(error, JSON.stringify(body)).toBeInstanceOf(OpenAI.BadRequestError);
      return (error as InstanceType<typeof OpenAI.BadRequestError>).error as {
        param: string;
        message: string;
      };
    };
    expect((await refused({ prompt: [5, 1_000_000] })).param).toBe("prompt");
    expect((await refused({ prompt: [5, -1] })).param).toBe("prompt");
    expect((await refused({ prompt: [] })).message).toMatch(/list of token ids/);
    expect((await refused({ prompt: Array.from({ length: 17 }, () => "x") })).param).toBe("prompt");
    expect((await refused({ prompt: ["a", 5] })).param).toBe("prompt");
    expect((await refused({ prompt: [5, 6], echo: true })).param).toBe("echo");
    expect((await refused({ prompt: ["a", "b"], stream: true })).param).toBe("prompt");
    expect((await alone("x")).text).toBeTypeOf("string");
  });

  it("serves LangChain's completions model, which sends its prompts as one list", async () => {
    const llm = new LangChainOpenAI({
      model: perch.server.mainModelId,
      apiKey: "not-needed",
      configuration: { baseURL: `${perch.server.url}/v1` },
      temperature: 0,
      maxTokens: 8,
      maxRetries: 0,
    });
    const prompts = ["The sea", "A cat sat"];
    const result = await llm.generate(prompts);
    expect(result.generations.map((generation) => generation[0]!.text)).toEqual([
      (await alone("The sea")).text,
      (await alone("A cat sat")).text,
    ]);
  });
});
