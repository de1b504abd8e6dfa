import { gguf } from "@huggingface/gguf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";
import { ensureTestModels } from "../../helpers/testModels.js";

let server: TestServer;
/** The test model's end-of-generation token (`<|im_end|>`). */
let eos: number;

beforeAll(async () => {
  const models = await ensureTestModels();
  const { metadata } = await gguf(models.main, { allowLocalFile: true });
  eos = (metadata as Record<string, unknown>)["tokenizer.ggml.eos_token_id"] as number;
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const post = async (path: string, body: Record<string, unknown>) => {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: server.mainModelId, max_tokens: 6, temperature: 0, ...body }),
  });
  expect(response.status).toBe(200);
  // An honoured field is not reported as ignored.
  expect(response.headers.get("x-perch-ignored-fields")).toBeNull();
  return response;
};

interface Usage {
  completion_tokens: number;
}

describe("ignore_eos (llama-server's and vLLM's extension): generate through end-of-generation to max_tokens", () => {
  // A +100 bias makes the end-of-generation token the greedy pick at every step.
  const towardsEnd = () => ({ logit_bias: { [eos]: 100 } });

  it("text completions stop at once on the end token without it, and run to max_tokens with it", async () => {
    const plain = (await (await post("/v1/completions", { prompt: "numbers", ...towardsEnd() })).json()) as {
      choices: { finish_reason: string }[];
      usage: Usage;
    };
    expect(plain.choices[0]!.finish_reason).toBe("stop");
    expect(plain.usage.completion_tokens).toBe(0);

    // ignore_eos wins over the request's own bias on end tokens, as in llama-server (its ban is
    // applied after logit_bias).
    const through = (await (
      await post("/v1/completions", { prompt: "numbers", ignore_eos: true, ...towardsEnd() })
    ).json()) as { choices: { finish_reason: string; text: string }[]; usage: Usage };
    expect(through.choices[0]!.finish_reason).toBe("length");
    expect(through.usage.completion_tokens).toBe(6);
    expect(through.choices[0]!.text.length).toBeGreaterThan(0);

    const explicitFalse = (await (
      await post("/v1/completions", { prompt: "numbers", ignore_eos: false, ...towardsEnd() })
    ).json()) as { usage: Usage };
    expect(explicitFalse.usage.completion_tokens).toBe(0);
  });

  it("streamed text completions count every token to max_tokens", async () => {
    const response = await post("/v1/completions", {
      prompt: "rivers",
      ignore_eos: true,
      stream: true,
      stream_options: { include_usage: true },
      ...towardsEnd(),
    });
    const events = (await response.text())
      .split("\n\n")
      .filter((event) => event.startsWith("data: ") && event !== "data: [DONE]")
      .map(
        (event) =>
          JSON.parse(event.slice(6)) as { choices: { finish_reason: string | null }[]; usage?: Usage },
      );
    expect(events.at(-1)!.usage!.completion_tokens).toBe(6);
    expect(events.flatMap((event) => event.choices.map((choice) => choice.finish_reason))).toContain(
      "length",
    );
  });

  it("chat completions run to max_tokens with it", async () => {
    const messages = [{ role: "user", content: "hi" }];
    const plain = (await (await post("/v1/chat/completions", { messages, ...towardsEnd() })).json()) as {
      choices: { finish_reason: string }[];
      usage: Usage;
    };
    expect(plain.choices[0]!.finish_reason).toBe("stop");
    const through = (await (
      await post("/v1/chat/completions", { messages, ignore_eos: true, ...towardsEnd() })
    ).json()) as { choices: { finish_reason: string }[]; usage: Usage };
    expect(through.choices[0]!.finish_reason).toBe("length");
    expect(through.usage.completion_tokens).toBe(6);
  });
});
