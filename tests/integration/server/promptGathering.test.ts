import { LlamaModel, type LlamaContext } from "node-llama-cpp";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { recordDecodes } from "../../helpers/recordDecodes.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

// Requests sent together by one client reach the lane a few milliseconds apart (each is parsed,
// rendered and tokenized on the one JavaScript thread). The first used to be ready before the
// second had arrived and started its prompt alone; the rest waited for that decode to end and
// followed in other decodes. Now they start their prompts in the same decodes.

const createContext = vi.spyOn(LlamaModel.prototype, "createContext");
let server: TestServer;
let openai: OpenAI;

beforeAll(async () => {
  server = await startTestServer();
  await server.putModelSettings({ max_concurrent_requests: 4, context_size: 2048 });
  openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "not-needed", maxRetries: 0 });
});
afterAll(async () => {
  createContext.mockRestore();
  await server?.close();
});

/** A prompt of a few dozen tokens, different for each client. */
function prompt(client: number): string {
  const words = ["river", "stone", "lantern", "orchard", "harbor", "meadow", "signal", "copper"];
  return Array.from({ length: 24 }, (_, index) => words[(index * (client + 3)) % words.length]).join(" ");
}

describe("requests sent together over HTTP", () => {
  it("start their prompts in shared decodes at an idle lane", async () => {
    // Loads the model (a prompt too short to teach the lane its prompt pace).
    await openai.completions.create({ model: server.mainModelId, prompt: "hi", max_tokens: 1 });
    const context = (await createContext.mock.results.at(-1)!.value) as LlamaContext;
    for (let round = 0; round < 3; round++) {
      const decodes = recordDecodes(context);
      const replies = await Promise.all(
        [0, 1, 2, 3].map((client) =>
          openai.completions.create({
            model: server.mainModelId,
            prompt: prompt(client + 4 * round),
            max_tokens: 4,
            temperature: 0,
            stream: true,
          }),
        ),
      );
      for (const stream of replies) for await (const _chunk of stream);
      const promptDecodes = decodes.filter((items) => items.some((item) => item.tokens > 1));
      expect(promptDecodes.length).toBeGreaterThan(0);
      // Every decode that evaluated prompt tokens held all four sequences.
      expect(promptDecodes.map((items) => new Set(items.map((item) => item.sequenceId)).size)).toEqual(
        promptDecodes.map(() => 4),
      );
    }
  });
});
