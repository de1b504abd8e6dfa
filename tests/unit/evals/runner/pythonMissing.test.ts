import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { resolveBenchmark } from "../../../../src-main/evals/benchmarks/resolveBenchmark.js";
import { requirePython } from "../../../../src-main/evals/scoring/requirePython.js";
import { createServer } from "../../../../src-main/server/createServer.js";
import { registerEvalRoutes } from "../../../../src-main/server/admin/registerEvalRoutes.js";
import type { BenchmarkName } from "../../../../src-shared/contracts/accuracy.js";
import { createQueueFixture } from "./queueFixture.js";

describe("a code benchmark on a machine without Python", () => {
  let app: FastifyInstance | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    await app?.close();
  });

  it("is refused over HTTP before it starts, with how to install Python; other benchmarks still run", async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "perch-no-python-"));
    // The check createEvalQueue wires in, on a Mac without Python (no Command Line Tools either).
    const fixture = createQueueFixture({
      names: ["gsm8k", "humaneval"],
      assertBenchmarks: async (names) => {
        if (!names.some((name) => resolveBenchmark(name as BenchmarkName).needsSandbox)) return;
        await requirePython(undefined, {
          env: { PATH: empty, HOME: empty },
          platform: "darwin",
          run: () => ({ status: 1, stdout: "" }),
        });
      },
    });
    close = () => fixture.queue.close();
    app = await createServer({
      allowRemoteAdmin: false,
      register: (server) => registerEvalRoutes(server, { queue: fixture.queue }),
    });
    const refused = await app.inject({
      method: "POST",
      url: "/admin/api/bench/accuracy/queue",
      payload: { model_id: "m1", benchmarks: ["humaneval"] },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: "python_missing" });
    expect(refused.json().error.message).toContain("brew install python");
    expect(
      (await app.inject({ method: "GET", url: "/admin/api/bench/accuracy/queue" })).json().running,
    ).toBeNull();

    const accepted = await app.inject({
      method: "POST",
      url: "/admin/api/bench/accuracy/queue",
      payload: { model_id: "m1", benchmarks: ["gsm8k"] },
    });
    expect(accepted.statusCode).toBe(202);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
