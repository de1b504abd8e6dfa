import { Ollama, type Logprob } from "ollama";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { useOpenAiTestServer } from "../../helpers/startTestServer.js";

const perch = useOpenAiTestServer();

type ContentLogprob = OpenAI.Chat.ChatCompletionTokenLogprob;

const request = {
  messages: [{ role: "user" as const, content: "copy this line again and then stop" }],
  max_tokens: 20,
  temperature: 0,
  logprobs: true,
  top_logprobs: 5,
};

/** Greedy: every logprob ≤ 0, the chosen token the likeliest of its candidates, `top` of them. */
function expectGreedy(content: ContentLogprob[], text: string, top: number): void {
  expect(content.length).toBeGreaterThan(0);
  expect(content.map((entry) => entry.token).join("")).toBe(text);
  for (const entry of content) {
    expect(entry.logprob).toBeLessThanOrEqual(0);
    expect(entry.top_logprobs).toHaveLength(top);
    expect(Buffer.from(entry.bytes!).toString("utf8")).toBe(entry.token);
    for (const candidate of entry.top_logprobs) {
      expect(candidate.logprob).toBeLessThanOrEqual(entry.logprob + 1e-6);
      expect(candidate.logprob).toBeGreaterThanOrEqual(-9999);
    }
  }
}

async function streamed(body: Record<string, unknown>) {
  const stream = await perch.openai.chat.completions.create({
    model: perch.server.mainModelId,
    ...request,
    ...body,
    stream: true,
  } as OpenAI.Chat.ChatCompletionCreateParamsStreaming);
  const byChoice = new Map<number, { text: string; content: ContentLogprob[] }>();
  for await (const chunk of stream) {
    for (const choice of chunk.choices) {
      const entry = byChoice.get(choice.index) ?? { text: "", content: [] };
      byChoice.set(choice.index, entry);
      const piece = choice.delta.content ?? "";
      const pieceLogprobs = choice.logprobs?.content ?? [];
      // Each chunk's entries are the tokens of its own delta.
      expect(pieceLogprobs.map((item) => item.token).join("")).toBe(piece);
      entry.text += piece;
      entry.content.push(...pieceLogprobs);
    }
  }
  return byChoice;
}

describe("logprobs with the official openai SDK", () => {
  it("chat: the tokens spell the answer, greedy picks the likeliest, top_logprobs as many as asked", async () => {
    const reply = await perch.openai.chat.completions.create({ model: perch.server.mainModelId, ...request });
    const choice = reply.choices[0]!;
    expectGreedy(choice.logprobs!.content!, choice.message.content!, 5);
    const plain = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      logprobs: undefined,
      top_logprobs: undefined,
    });
    expect(plain.choices[0]!.logprobs).toBeNull();
    expect(plain.choices[0]!.message.content).toBe(choice.message.content);
    const noCandidates = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      top_logprobs: undefined,
    });
    expectGreedy(noCandidates.choices[0]!.logprobs!.content!, choice.message.content!, 0);
  });

  it("streaming: each chunk carries its delta's entries, and together they equal the non-streamed ones", async () => {
    const reply = await perch.openai.chat.completions.create({ model: perch.server.mainModelId, ...request });
    const choice = (await streamed({})).get(0)!;
    expect(choice.text).toBe(reply.choices[0]!.message.content);
    expect(choice.content).toEqual(reply.choices[0]!.logprobs!.content);
  });

  it("sampling with a seed: post-sampling probabilities, streamed entries equal the non-streamed ones", async () => {
    const seeded = { temperature: 1, top_k: 4, seed: 7 };
    const reply = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      ...seeded,
    });
    const content = reply.choices[0]!.logprobs!.content!;
    expect(content.map((entry) => entry.token).join("")).toBe(reply.choices[0]!.message.content);
    for (const entry of content) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      // After top-k 4 only four candidates are left to report, though five were asked.
      expect(entry.top_logprobs.length).toBeLessThanOrEqual(4);
      expect(entry.top_logprobs.map((candidate) => candidate.logprob)).toContain(entry.logprob);
      const total = entry.top_logprobs.reduce((sum, candidate) => sum + Math.exp(candidate.logprob), 0);
      expect(total).toBeCloseTo(1, 3);
    }
    expect((await streamed(seeded)).get(0)!.content).toEqual(content);
  });

  it("n > 1: every choice has its own logprobs (greedy: equal), streamed too", async () => {
    const reply = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      n: 2,
    });
    expect(reply.choices).toHaveLength(2);
    for (const choice of reply.choices) expectGreedy(choice.logprobs!.content!, choice.message.content!, 5);
    expect(reply.choices[1]!.logprobs).toEqual(reply.choices[0]!.logprobs);
    const stream = await streamed({ n: 2 });
    expect(stream.get(1)!.content).toEqual(reply.choices[1]!.logprobs!.content);
  });

  it("a JSON answer's tokens spell it; a tool call's tokens are not content", async () => {
    const json = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      max_tokens: 30,
      response_format: { type: "json_object" },
    });
    expectGreedy(json.choices[0]!.logprobs!.content!, json.choices[0]!.message.content!, 5);
    const call = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      max_tokens: 40,
      tools: [
        { type: "function", function: { name: "lookup", parameters: { type: "object", properties: {} } } },
      ],
      tool_choice: "required",
    });
    expect(call.choices[0]!.message.tool_calls).toHaveLength(1);
    expect(call.choices[0]!.message.content).toBeNull();
    expect(call.choices[0]!.logprobs!.content).toEqual([]);
    expect(call.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it("a stop sequence's held-back tokens are not reported", async () => {
    const free = await perch.openai.chat.completions.create({ model: perch.server.mainModelId, ...request });
    const answer = free.choices[0]!.message.content!;
    const stop = answer.slice(Math.floor(answer.length / 2), Math.floor(answer.length / 2) + 3);
    const stopped = await perch.openai.chat.completions.create({
      model: perch.server.mainModelId,
      ...request,
      stop,
    });
    const content = stopped.choices[0]!.message.content!;
    expect(content).toBe(answer.slice(0, answer.indexOf(stop)));
    expectGreedy(stopped.choices[0]!.logprobs!.content!, content, 5);
    expect((await streamed({ stop })).get(0)!.content).toEqual(stopped.choices[0]!.logprobs!.content);
  });

  it("legacy completions: tokens, token_logprobs, top_logprobs (with the chosen token) and text_offset", async () => {
    const body = {
      model: perch.server.mainModelId,
      prompt: "alpha beta gamma",
      max_tokens: 12,
      temperature: 0,
    };
    const reply = await perch.openai.completions.create({ ...body, logprobs: 3 });
    const choice = reply.choices[0]!;
    const logprobs = choice.logprobs!;
    expect(logprobs.tokens!.join("")).toBe(choice.text);
    expect(logprobs.token_logprobs).toHaveLength(logprobs.tokens!.length);
    let offset = 0;
    logprobs.tokens!.forEach((token, index) => {
      expect(logprobs.text_offset![index]).toBe(offset);
      offset += [...token].length;
      const candidates = logprobs.top_logprobs![index]!;
      expect(Object.keys(candidates).length).toBeGreaterThanOrEqual(1);
      expect(Object.keys(candidates).length).toBeLessThanOrEqual(4);
      expect(candidates[token]).toBe(logprobs.token_logprobs![index]);
      expect(Math.max(...Object.values(candidates))).toBeLessThanOrEqual(
        logprobs.token_logprobs![index]! + 1e-6,
      );
    });
    expect((await perch.openai.completions.create(body)).choices[0]!.logprobs).toBeNull();
    // logprobs 0: no candidates, but the chosen token's logprob all the same.
    const chosenOnly = (await perch.openai.completions.create({ ...body, logprobs: 0 })).choices[0]!
      .logprobs!;
    expect(chosenOnly.tokens).toEqual(logprobs.tokens);
    chosenOnly.top_logprobs!.forEach((candidates, index) =>
      expect(candidates).toEqual({ [chosenOnly.tokens![index]!]: chosenOnly.token_logprobs![index] }),
    );

    const stream = await perch.openai.completions.create({ ...body, logprobs: 3, stream: true });
    const tokens: string[] = [];
    const offsets: number[] = [];
    for await (const chunk of stream) {
      tokens.push(...(chunk.choices[0]?.logprobs?.tokens ?? []));
      offsets.push(...(chunk.choices[0]?.logprobs?.text_offset ?? []));
    }
    expect(tokens).toEqual(logprobs.tokens);
    expect(offsets).toEqual(logprobs.text_offset);
  });

  it("refuses what it cannot honour with a 400 naming the field", async () => {
    const post = async (path: string, body: Record<string, unknown>) => {
      const response = await fetch(`${perch.server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: perch.server.mainModelId, max_tokens: 2, ...body }),
      });
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { code: string; param?: string } }).error;
    };
    const messages = request.messages;
    expect(await post("/v1/chat/completions", { messages, top_logprobs: 2 })).toMatchObject({
      code: "invalid_request",
      param: "top_logprobs",
    });
    expect(await post("/v1/chat/completions", { messages, logprobs: true, top_logprobs: 21 })).toMatchObject({
      code: "invalid_request",
    });
    expect(await post("/v1/completions", { prompt: "a", logprobs: 6 })).toMatchObject({
      code: "invalid_request",
    });
    expect(await post("/v1/completions", { prompt: "a", logprobs: 1, echo: true })).toMatchObject({
      code: "invalid_request",
      param: "logprobs",
    });
  });
});

describe("logprobs with the ollama npm client", () => {
  type Line = { text: string; logprobs?: Logprob[] };

  function expectOllamaGreedy(reply: Line, lines: Line[]): void {
    const entries = reply.logprobs!;
    expect(entries.map((entry) => entry.token).join("")).toBe(reply.text);
    for (const entry of entries) {
      expect(entry.logprob).toBeLessThanOrEqual(0);
      expect(entry.top_logprobs).toHaveLength(3);
      for (const candidate of entry.top_logprobs!)
        expect(candidate.logprob).toBeLessThanOrEqual(entry.logprob + 1e-6);
    }
    // Each streamed line carries the tokens of its own text; together, the non-streamed entries.
    for (const line of lines)
      expect((line.logprobs ?? []).map((entry) => entry.token).join("")).toBe(line.text);
    expect(lines.flatMap((line) => line.logprobs ?? [])).toEqual(entries);
  }

  it("/api/chat and /api/generate: the tokens spell the answer, streamed or not", async () => {
    const ollama = new Ollama({ host: perch.server.url });
    const model = `${perch.server.mainModelId}:latest`;
    const options = { temperature: 0, num_predict: 16 };
    const chat = { model, messages: request.messages, options, logprobs: true, top_logprobs: 3 };
    const generate = { model, prompt: "copy this line", options, logprobs: true, top_logprobs: 3 };

    const chatReply = await ollama.chat(chat);
    const chatLines: Line[] = [];
    for await (const part of await ollama.chat({ ...chat, stream: true }))
      chatLines.push({ text: part.message.content, logprobs: part.logprobs });
    expectOllamaGreedy({ text: chatReply.message.content, logprobs: chatReply.logprobs }, chatLines);

    const generateReply = await ollama.generate(generate);
    const generateLines: Line[] = [];
    for await (const part of await ollama.generate({ ...generate, stream: true }))
      generateLines.push({ text: part.response ?? "", logprobs: part.logprobs });
    expectOllamaGreedy(
      { text: generateReply.response ?? "", logprobs: generateReply.logprobs },
      generateLines,
    );

    expect((await ollama.chat({ model, messages: request.messages, options })).logprobs).toBeUndefined();
    const refused = await fetch(`${perch.server.url}/api/chat`, {
      method: "POST",
      body: JSON.stringify({ ...chat, logprobs: undefined, stream: false }),
    });
    expect(refused.status).toBe(400);
  });
});
