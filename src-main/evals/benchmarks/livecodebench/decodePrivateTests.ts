import { z } from "zod";
import type { CodeSandbox } from "../../scoring/SandboxRun.js";
import { liveCodeBenchTestSchema, type LiveCodeBenchTest } from "./LiveCodeBenchItem.js";

/**
 * The private tests are JSON, or base64 → zlib → pickle → JSON. Unpickling runs code, so it runs
 * in the sandbox like a solution would. Tests that cannot be read answer why, as a string: the
 * dataset's fault, never the model's (the item is a `scoring_error`, left out of the accuracy).
 */
const decoder = [
  "import base64, json, pickle, sys, zlib",
  "raw = sys.stdin.read()",
  "try:",
  "    tests = json.loads(raw)",
  "except ValueError:",
  "    tests = json.loads(pickle.loads(zlib.decompress(base64.b64decode(raw.encode('ascii')))))",
  "sys.stdout.write(json.dumps(tests))",
].join("\n");

export async function decodePrivateTests(
  encoded: string,
  sandbox: CodeSandbox,
  signal?: AbortSignal,
): Promise<LiveCodeBenchTest[] | string> {
  if (!encoded.trim()) return [];
  const result = await sandbox.run(
    { code: decoder, stdin: encoded, timeoutS: 60, memoryBytes: 8 * 1024 ** 3, outputLimitBytes: 1024 ** 3 },
    signal,
  );
  if (result.outcome !== "passed") return `could not decode the private tests: ${result.error}`;
  let decoded: unknown;
  try {
    decoded = JSON.parse(result.stdout);
  } catch {
    return "could not decode the private tests: the decoder's output is not JSON";
  }
  const tests = z.array(liveCodeBenchTestSchema).safeParse(decoded);
  if (!tests.success) {
    const issue = tests.error.issues[0];
    return `the private tests are not in LiveCodeBench's shape (${issue?.path.join(".") || "tests"}: ${issue?.message})`;
  }
  return tests.data;
}
