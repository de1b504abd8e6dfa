import http from "node:http";
import type { ModelListResponse } from "../../../src-shared/contracts/models.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badRequestKinds, generateBadRequests } from "../../helpers/badRequests.js";
import { fetchStats, mapConcurrently, refusalProblem } from "../../helpers/hardeningChecks.js";
import { rawExchange, rawRequest } from "../../helpers/rawHttp.js";
import { startTestServer, type TestServer } from "../../helpers/startTestServer.js";

const seed = 20_260_801;
const count = 600;

describe("bad input", () => {
  let server: TestServer;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

  beforeAll(async () => {
    server = await startTestServer();
  });

  afterAll(async () => {
    agent.destroy();
    await server?.close();
  });

  const normalChat = () =>
    fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: server.mainModelId,
        messages: [{ role: "user", content: "hi" }],
        max_tokens: 2,
      }),
    });

  it(`answers ${count} generated malformed requests with typed 4xx errors, changes nothing, keeps serving`, async () => {
    expect((await normalChat()).status).toBe(200);
    const contextTokens = (await fetchStats(server.url)).models[0]!.contextSize;
    const snapshot = async () => ({
      settings: await (await fetch(`${server.url}/admin/api/settings`)).json(),
      // Without `load`: refused long prompts still touch the model (last_used_at).
      models: (
        (await (await fetch(`${server.url}/admin/api/models`)).json()) as ModelListResponse
      ).models.map(({ load: _load, ...row }) => row),
      profiles: await (await fetch(`${server.url}/admin/api/templates`)).json(),
    });
    const before = await snapshot();

    const requests = generateBadRequests(seed, count, { modelId: server.mainModelId, contextTokens });
    const problems: string[] = [];
    const kinds = new Map<string, number>();
    await mapConcurrently(requests, 6, async (request) => {
      const response = await rawRequest(server.url, { ...request, agent }).catch((error: Error) => ({
        status: 0,
        headers: {},
        body: `transport error: ${error.message}`,
      }));
      const problem = refusalProblem(response, request);
      const kind = request.kind.split(":")[0]!;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      if (problem) {
        problems.push(
          `${request.kind} ${request.method} ${request.path.slice(0, 100)}: ${problem} — ${response.body.slice(0, 200)}`,
        );
      }
    });

    expect(problems).toEqual([]);
    expect(requests.length).toBeGreaterThanOrEqual(500);
    expect([...kinds.keys()].sort()).toEqual([...badRequestKinds].sort());
    // Nothing was half-applied by a refused request, and the server still serves.
    expect(await snapshot()).toEqual(before);
    const after = await normalChat();
    expect(after.status).toBe(200);
    expect((await after.json()).choices[0].finish_reason).toMatch(/stop|length/);
    const stats = await fetchStats(server.url);
    expect(stats.totals).toMatchObject({ activeSequences: 0, queueDepth: 0 });
    expect((await (await fetch(`${server.url}/admin/api/health`)).json()).warnings).toEqual([]);
  });

  it("answers what the HTTP parser rejects (garbage, smuggling headers, oversized headers) in the error shape", async () => {
    const host = new URL(server.url).host;
    const cases = [
      "GARBAGE\r\n\r\n",
      `GET /v1/models HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`,
      `GET /v1/models HTTP/1.1\r\nHost: ${host}\r\nBad Header\r\n\r\n`,
      `GET /v1/models HTTP/1.1\r\nHost: ${host}\r\nX: \u0000\r\n\r\n`,
    ];
    for (const bytes of cases) {
      const answer = await rawExchange(server.url, bytes);
      const [head, body = ""] = answer.split("\r\n\r\n");
      expect(head, bytes.slice(0, 60)).toMatch(/^HTTP\/1\.1 4\d\d /);
      const status = Number(head!.split(" ")[1]);
      expect(
        refusalProblem({ status, headers: { "content-type": "application/json" }, body }),
        `${bytes.slice(0, 60)} → ${answer.slice(0, 300)}`,
      ).toBeUndefined();
    }
    expect((await normalChat()).status).toBe(200);
  });
});
