import { apiErrorSchema, errorCodeSchema, type ErrorCode } from "../../src-shared/contracts/errors.js";
import { ollamaErrorSchema } from "../../src-shared/contracts/ollama.js";
import type { RawResponse } from "./rawHttp.js";

/** What a stack trace or a source location looks like in a response body. */
const stackPattern = /\n\s+at\s|\bat\s+\S+\s+\(\S+:\d+:\d+\)|node_modules|\.ts:\d+|\.js:\d+:\d+/;

/**
 * Why `response` is not a proper refusal (a 4xx in the documented error shape, with a code from
 * the enum and no stack trace), or `undefined` when it is one.
 */
export function refusalProblem(
  response: RawResponse,
  expected: { codes?: readonly ErrorCode[]; status?: number; path?: string } = {},
): string | undefined {
  if (response.status < 400 || response.status > 499) return `status ${response.status}`;
  if (expected.status !== undefined && response.status !== expected.status) {
    return `status ${response.status}, expected ${expected.status}`;
  }
  if (!String(response.headers["content-type"]).startsWith("application/json")) {
    return `content-type ${response.headers["content-type"]}`;
  }
  if (stackPattern.test(response.body)) return "a stack trace or source location in the body";
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body);
  } catch {
    return "a body that is not JSON";
  }
  const shape = apiErrorSchema.safeParse(parsed);
  let code: string;
  if (shape.success) code = shape.data.error.code;
  else {
    // Ollama's routes answer `{"error": "..."}` with the stable code in a header.
    const ollama = ollamaErrorSchema.strict().safeParse(parsed);
    const header = response.headers["x-perch-error-code"];
    if (!expected.path?.startsWith("/api/") || !ollama.success || !isErrorCode(header)) {
      return `not the error shape: ${shape.error.issues[0]?.message}`;
    }
    code = header;
  }
  if (expected.codes && !expected.codes.includes(code as ErrorCode)) {
    return `code ${code}, expected one of ${expected.codes.join(", ")}`;
  }
  return undefined;
}

/** Whether a string is one of the documented error codes. */
export const isErrorCode = (code: unknown): code is ErrorCode => errorCodeSchema.safeParse(code).success;

/** Runs `task` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The scheduler totals of `GET /admin/api/stats`. */
export interface StatsTotals {
  activeSequences: number;
  queueDepth: number;
}

export async function fetchStats(baseUrl: string): Promise<{
  totals: StatsTotals;
  models: {
    modelId: string;
    activeSequences: number;
    queueDepth: number;
    contextSize: number;
    requests: Record<string, number>;
  }[];
  loadedModels: { id: string; state: string; activeUsers: number }[];
}> {
  const response = await fetch(`${baseUrl}/admin/api/stats`);
  if (!response.ok) throw new Error(`stats answered ${response.status}`);
  return (await response.json()) as Awaited<ReturnType<typeof fetchStats>>;
}

/**
 * Waits until the server reports no active sequence and an empty queue. A request the client
 * gave up on is released within a decode step; anything still held after `limitMs` is a leak.
 */
export async function waitForIdle(baseUrl: string, limitMs = 20_000): Promise<StatsTotals> {
  const started = Date.now();
  for (;;) {
    const { activeSequences, queueDepth } = (await fetchStats(baseUrl)).totals;
    const totals = { activeSequences, queueDepth };
    if (activeSequences === 0 && queueDepth === 0) return totals;
    if (Date.now() - started > limitMs) return totals;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once `predicate` holds, polling (not a timing assertion: the limit only stops a hang). */
export async function pollUntil(
  predicate: () => Promise<boolean> | boolean,
  what: string,
  limitMs = 60_000,
): Promise<void> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > limitMs) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
