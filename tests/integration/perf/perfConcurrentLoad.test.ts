import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perfEventSchema, type PerformanceResult } from "../../../src-shared/contracts/performance.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";
import { startReceiver } from "../../unit/perf/receiver.js";

let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  server = await startTestServer({ threads: 1 });
  receiver = await startReceiver([201]);
  await fetch(`${server.url}/admin/api/settings`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ community_upload_url: receiver.url }),
  });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

/** Runs a short benchmark that asks for the upload, and returns its settled result. */
async function runBench(): Promise<PerformanceResult> {
  const started = await fetch(`${server.url}/admin/api/bench/start`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model_id: server.mainModelId,
      prompt_lengths: [128],
      batch_sizes: [],
      generated_tokens: 16,
      upload_to_community: true,
    }),
  });
  expect(started.status).toBe(202);
  const { run_id } = (await started.json()) as { run_id: string };
  const text = await (await fetch(`${server.url}/admin/api/bench/${run_id}/stream`)).text();
  const events = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => perfEventSchema.parse(JSON.parse(line.slice(6))));
  const completed = events.at(-1);
  if (completed?.type !== "completed") throw new Error(`the run ended with ${JSON.stringify(completed)}`);
  return completed.result;
}

const activeSequences = async () =>
  ((await (await fetch(`${server.url}/admin/api/stats`)).json()) as { totals: { activeSequences: number } })
    .totals.activeSequences;

describe("a performance run while other clients use the model", () => {
  it("records their requests, warns, and keeps the skewed result from the community site", async () => {
    const chat = new AbortController();
    const running = fetch(`${server.url}/v1/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: server.mainModelId, prompt: "Once", max_tokens: 3000, ignore_eos: true }),
      signal: chat.signal,
    }).catch(() => undefined);
    for (let waited = 0; (await activeSequences()) === 0; waited += 50) {
      if (waited > 30_000) throw new Error("the other client's request never started");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const shared = await runBench();
    chat.abort();
    await running;
    expect(shared.environment.other_requests).toBeGreaterThanOrEqual(1);
    expect(shared.upload).toMatchObject({ state: "skipped", code: "concurrent_load" });
    expect(receiver.received).toHaveLength(0);

    // Alone, the same run is clean and goes up.
    await expect.poll(activeSequences).toBe(0);
    const alone = await runBench();
    expect(alone.environment.other_requests).toBe(0);
    expect(alone.upload.state).toBe("uploaded");
  });
});
