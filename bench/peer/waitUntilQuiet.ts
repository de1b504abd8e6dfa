import fs from "node:fs";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** CPU time (user + system, in clock ticks) a process has used, or undefined off Linux. */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces); utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until none of the servers uses CPU: their CPU time stands still for `windowMs`. A server
 * under test must not pay for the other one's leftovers: llama-server's ggml threadpool keeps its
 * threads spinning for a while after every decode (ggml's `poll`), and on a 2-core machine a
 * request sent to Perch right after one to llama-server ran with one core taken (returning TTFT
 * 272–337 ms measured so, 152–166 ms after a pause). Off Linux, a fixed pause. Gives up after
 * `limitMs` (a server busy on its own is measured as it is).
 */
export async function waitUntilQuiet(
  pids: readonly number[],
  { windowMs = 150, limitMs = 5_000 }: { windowMs?: number; limitMs?: number } = {},
): Promise<void> {
  if (pids.some((pid) => cpuTicks(pid) === undefined)) return sleep(1_000);
  const deadline = Date.now() + limitMs;
  let before = pids.map(cpuTicks);
  while (Date.now() < deadline) {
    await sleep(windowMs);
    const after = pids.map(cpuTicks);
    if (after.every((ticks, index) => ticks === before[index])) return;
    before = after;
  }
}
