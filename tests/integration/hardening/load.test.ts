import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchStats, waitForIdle } from "../../helpers/hardeningChecks.js";
import { runLoad } from "../../helpers/loadClients.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

describe("load", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
    // Four sequences and six queue places for 32 clients: both completions and 429s happen.
    await server.putModelSettings({ max_concurrent_requests: 4, max_queue: 6 });
  });

  afterAll(async () => {
    await server?.close();
  });

  it("32 clients x 10 short requests: each completes or gets 429, none hangs or is lost, then idle again", async () => {
    // Warm up (load the model, build the lane, first allocations) before the idle baseline.
    await runLoad(server.url, server.mainModelId, { clients: 4, requestsPerClient: 3, seed: 1 });
    await waitForIdle(server.url);
    const counted = async () => (await fetchStats(server.url)).models[0]!.requests;
    const countsBefore = await counted();
    const baselineRss = process.memoryUsage().rss;

    const report = await runLoad(server.url, server.mainModelId, {
      clients: 32,
      requestsPerClient: 10,
      seed: 8,
    });

    expect(report.failures).toEqual([]);
    expect(report.hung).toBe(0);
    expect(report.requests).toBe(320);
    expect(report.completed + report.refused).toBe(320);
    expect(report.completed).toBeGreaterThan(0);
    expect(report.refused).toBeGreaterThan(0);
    // The server's own books agree: nothing completed or refused that the clients did not see.
    const countsAfter = await counted();
    expect(countsAfter.completed - countsBefore.completed).toBe(report.completed);
    expect(countsAfter.rejected - countsBefore.rejected).toBe(report.refused);
    expect(countsAfter.failed - countsBefore.failed).toBe(0);

    const idle = await waitForIdle(server.url);
    expect(idle).toEqual({ activeSequences: 0, queueDepth: 0 });
    const stats = await fetchStats(server.url);
    expect(stats.models[0]).toMatchObject({ activeSequences: 0, queueDepth: 0, maxQueue: 6, sequences: 4 });
    const afterRss = process.memoryUsage().rss;
    console.info(
      `load: ${report.completed} completed, ${report.refused} refused (429) in ${Math.round(report.wallMs)} ms; ` +
        `latency p50 ${report.latencyMs.p50} ms, p95 ${report.latencyMs.p95} ms, max ${report.latencyMs.max} ms; ` +
        `RSS ${megabytes(baselineRss)} MB idle before, ${megabytes(afterRss)} MB idle after`,
    );
    // Generous: the test process also holds vitest and the clients' buffers.
    expect(afterRss - baselineRss).toBeLessThan(256 * 1024 * 1024);
  });

  it("a request for more choices than the model can ever hold is a 400 naming n, not a 429 no retry cures", async () => {
    const post = (body: object) =>
      fetch(`${server.url}/v1/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: server.mainModelId, max_tokens: 2, temperature: 0, ...body }),
      });
    // Four sequences and six queue places hold ten choices at most.
    const tooMany = await post({ prompt: ["a", "b", "c"], n: 4 });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { error: { param: string; message: string } }).error).toMatchObject({
      param: "n",
      message: expect.stringContaining("12 choices"),
    });
    // What fits is answered.
    const fits = await post({ prompt: ["a", "b"], n: 5 });
    expect(fits.status).toBe(200);
    expect(((await fits.json()) as { choices: unknown[] }).choices).toHaveLength(10);
  });
});
