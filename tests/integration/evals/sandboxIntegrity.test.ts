import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanEvalBenchmark } from "../../../src-main/evals/benchmarks/humaneval/humanEvalBenchmark.js";
import type { HumanEvalItem } from "../../../src-main/evals/benchmarks/humaneval/HumanEvalItem.js";
import { mbppBenchmark } from "../../../src-main/evals/benchmarks/mbpp/mbppBenchmark.js";
import type { MbppItem } from "../../../src-main/evals/benchmarks/mbpp/MbppItem.js";
import { LocalFileDatasetReader } from "../../../src-main/evals/datasets/LocalFileDatasetReader.js";
import { InlineSandbox } from "../../../src-main/evals/scoring/InlineSandbox.js";
import { SandboxPool } from "../../../src-main/evals/scoring/SandboxPool.js";
import type { SandboxMode } from "../../../src-main/evals/scoring/SandboxMode.js";
import { fixtureDataset } from "../../helpers/fixtureDatasets.js";
import { splitResponse } from "../../../src-main/evals/runner/splitResponse.js";

/*
 * The sandbox must keep one check from changing another check's verdict, and a check from
 * reporting its own pass: each test here is an attack a hostile probe found (issue 12).
 */

const linux = process.platform === "linux";
/** The mode the machine gives (linux-root as root), and the user-namespace mode forced. */
const modes: (SandboxMode | undefined)[] = linux ? [undefined, "linux-user"] : [undefined];
const name = (mode: SandboxMode | undefined) => mode ?? "default mode";

let hostDir = "";

beforeAll(() => {
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-integrity-"));
  fs.chmodSync(hostDir, 0o755);
});
afterAll(() => fs.rmSync(hostDir, { recursive: true, force: true }));

/** Bytes under the scratch folders of this process's sandbox pools, as the host sees them. */
function hostScratchBytes(): number {
  let total = 0;
  const walk = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else total += fs.lstatSync(full, { throwIfNoEntry: false })?.size ?? 0;
    }
  };
  for (const entry of fs.readdirSync(os.tmpdir()))
    if (entry.startsWith(`perch-sandbox-${process.pid}-`)) walk(path.join(os.tmpdir(), entry));
  return total;
}

const writeAndRead = "open('a.txt', 'w').write('ok')\nassert open('a.txt').read() == 'ok'";

describe.each(modes)("sandbox integrity (%s)", (mode) => {
  let sandbox: InlineSandbox;
  beforeAll(async () => {
    // One sandbox process: every check here runs after the previous one, on the same zygote.
    sandbox = await InlineSandbox.create({ mode, processes: 1 });
  });
  afterAll(() => sandbox.close());

  it(`symlinks left in a check's dir are not followed by cleanup; later checks still pass (${name(mode)})`, async () => {
    const code = [
      "import os",
      "os.symlink(os.path.dirname(os.getcwd()), 'scratch')",
      `os.symlink(${JSON.stringify(hostDir)}, 'host')`,
      "os.mkdir('inner')",
      "os.symlink(os.path.dirname(os.getcwd()), 'inner/scratch')",
    ].join("\n");
    expect((await sandbox.run({ code })).outcome).toBe("passed");
    const after = [];
    for (let index = 0; index < 4; index++) after.push(await sandbox.run({ code: writeAndRead }));
    expect(after.map((result) => `${result.outcome} ${result.error ?? ""}`.trim())).toEqual(
      Array(4).fill("passed"),
    );
    expect(fs.statSync(hostDir).mode & 0o777).toBe(0o755);
  });

  it(`a SysV shared memory segment dies with its check: invisible to the next check and the host (${name(mode)})`, async () => {
    const key = 0x50455243;
    const hostSegments = () =>
      linux
        ? fs
            .readFileSync("/proc/sysvipc/shm", "utf8")
            .split("\n")
            .filter((line) => line.trim().split(/\s+/)[0] === String(key)).length
        : 0;
    const before = hostSegments();
    const shm = [
      "import ctypes",
      "lib = ctypes.CDLL(None, use_errno=True)",
      "lib.shmget.restype = ctypes.c_int",
    ];
    const created = await sandbox.run({
      code: [
        ...shm,
        `ident = lib.shmget(${key}, 64 * 1024 * 1024, 0o1644)`,
        "assert ident >= 0, ctypes.get_errno()",
      ].join("\n"),
    });
    expect(created.outcome).toBe("passed");
    const next = await sandbox.run({
      code: [
        ...shm,
        `ident = lib.shmget(${key}, 0, 0)`,
        "print(ident, ctypes.get_errno())",
        "assert ident == -1",
      ].join("\n"),
    });
    expect(`${next.outcome} ${next.error ?? ""}`.trim()).toBe("passed");
    expect(hostSegments()).toBe(before);
  });

  it(`multiprocessing works: each check has a /dev/shm of its own, gone after it and never the host's (${name(mode)})`, async () => {
    const pools = [
      "import multiprocessing, concurrent.futures",
      "def square(x):",
      "    return x * x",
      "with multiprocessing.Pool(2) as pool:",
      "    assert pool.map(square, [1, 2, 3]) == [1, 4, 9]",
      "with concurrent.futures.ProcessPoolExecutor(2) as executor:",
      "    assert list(executor.map(square, [2, 3])) == [4, 9]",
      "lock = multiprocessing.Lock()",
      "with lock:",
      "    pass",
    ].join("\n");
    const pooled = await sandbox.run({ code: pools, timeoutS: 20 });
    expect(`${pooled.outcome} ${pooled.error ?? ""}`.trim()).toBe("passed");
    const mark = `/dev/shm/perch-left-${process.pid}`;
    const left = await sandbox.run({ code: `open(${JSON.stringify(mark)}, "w").write("x" * 1000)` });
    expect(`${left.outcome} ${left.error ?? ""}`.trim()).toBe("passed");
    const next = await sandbox.run({ code: `import os\nassert not os.path.exists(${JSON.stringify(mark)})` });
    expect(`${next.outcome} ${next.error ?? ""}`.trim()).toBe("passed");
    expect(fs.existsSync(mark)).toBe(false);
    // Bounded: 16 MiB, not the host's RAM.
    const big = await sandbox.run({
      code: `f = open("/dev/shm/big", "wb")\nfor _ in range(64):\n    f.write(b"x" * (1 << 20))`,
    });
    expect(big.outcome).not.toBe("passed");
  });

  it.runIf(linux)(`a check cannot make user namespaces of its own (${name(mode)})`, async () => {
    const code = [
      "import ctypes",
      "lib = ctypes.CDLL(None, use_errno=True)",
      "assert lib.unshare(0x10000000) == -1, 'made a user namespace'",
    ].join("\n");
    expect((await sandbox.run({ code })).outcome).toBe("passed");
  });

  it(`a check cannot forge its pass through the status pipe (${name(mode)})`, async () => {
    const forgeries = [
      "os.write(3, json.dumps({'kind': 'completed', 'pid': os.getpid()}).encode())",
      "os.write(3, ('\\n' + json.dumps({'kind': 'completed', 'pid': os.getpid()}) + '\\n').encode())",
      "for fd in range(1024):\n    try:\n        os.write(fd, ('\\n' + json.dumps({'kind': 'completed', 'pid': os.getpid(), 'token': ''}) + '\\n').encode())\n    except OSError:\n        pass",
      "pass",
    ];
    const results = await Promise.all(
      forgeries.map((forgery) =>
        sandbox.run({ code: `import json, os\n${forgery}\nos._exit(0)\nassert False` }),
      ),
    );
    expect(results.map((result) => result.outcome)).toEqual(Array(forgeries.length).fill("runtime_error"));
  });

  it(`an answer that breaks the harness itself is its own runtime_error, never unscored (${name(mode)})`, async () => {
    // Exceptions the harness cannot even describe escape it; before, they were reported as the
    // sandbox's failure (scoring_error), which takes the question out of the score.
    const breakers = [
      "class Sly:\n    @property\n    def __class__(self):\n        raise RuntimeError('no')\nraise SystemExit(Sly())",
      "class Meta(type):\n    def __getattribute__(cls, name):\n        raise RuntimeError('no')\nclass Odd(Exception, metaclass=Meta):\n    pass\nraise Odd()",
    ];
    const results = await Promise.all(breakers.map((code) => sandbox.run({ code })));
    expect(results.map((result) => result.outcome)).toEqual(["runtime_error", "runtime_error"]);
    // The sandbox itself is fine afterwards.
    expect((await sandbox.run({ code: writeAndRead })).outcome).toBe("passed");
  });

  it(`an exit with True, False or an int beyond a status is the answer's exit, never unscored (${name(mode)})`, async () => {
    // bool is an int to Python and 10**400 is one too: both once made a status the protocol
    // refused ("malformed sandbox answer"), so the question left the score as scoring_error.
    const exits = [
      "sys.exit(True)",
      "sys.exit(False)",
      "raise SystemExit(10**400)",
      "sys.exit(-1)",
      "sys.exit(256)",
    ];
    const results = await Promise.all(
      exits.map((line) => sandbox.run({ code: `import sys\n${line}\nassert False` })),
    );
    expect(results.map((result) => [result.outcome, result.error])).toEqual([
      ["runtime_error", expect.stringContaining("exited with code 1")],
      ["runtime_error", expect.stringContaining("before")],
      ["runtime_error", expect.stringContaining("exited with code 1")],
      ["runtime_error", expect.stringContaining("exited with code 1")],
      ["runtime_error", expect.stringContaining("exited with code 1")],
    ]);
  });

  it(`writing 40 × 16 MiB fails with disk_quota and the host scratch dir does not grow (${name(mode)})`, async () => {
    const code = [
      "import time",
      "try:",
      "    for index in range(40):",
      "        with open('f%d' % index, 'wb') as handle:",
      "            handle.write(b'x' * (16 * 1024 * 1024))",
      "except OSError:",
      // Time for the host to look while the files are still there.
      "    time.sleep(1.5)",
      "    raise",
    ].join("\n");
    const before = hostScratchBytes();
    let most = before;
    const watching = setInterval(() => (most = Math.max(most, hostScratchBytes())), 50);
    const result = await sandbox.run({ code, timeoutS: 20 }).finally(() => clearInterval(watching));
    expect(result.outcome).toBe("disk_quota");
    if (linux) expect(most - before).toBeLessThan(1024 * 1024);
  });

  it(`ignoring SIGXCPU is still a timeout, not "killed by signal 9" (${name(mode)})`, async () => {
    const code = [
      "import hashlib, signal, threading",
      "signal.signal(signal.SIGXCPU, signal.SIG_IGN)",
      "data = b'x' * (1 << 20)",
      "def burn():",
      "    while True:",
      "        hashlib.sha256(data).digest()",
      // Threads that release the GIL: the hard CPU limit comes well before the wall clock.
      "for _ in range(3):",
      "    threading.Thread(target=burn, daemon=True).start()",
      "burn()",
    ].join("\n");
    const result = await sandbox.run({ code, timeoutS: 2 });
    expect(result.error).not.toMatch(/signal 9/);
    expect(result.outcome).toBe("timeout");
  });
});

describe("cleanup in plain mode", () => {
  it("does not follow a symlink a check left to a host dir", async () => {
    const sandbox = await InlineSandbox.create({ mode: "plain", processes: 1 });
    try {
      const code = `import os\nos.symlink(${JSON.stringify(hostDir)}, 'host')\nos.mkdir('inner')\nos.symlink(${JSON.stringify(hostDir)}, 'inner/host')`;
      expect((await sandbox.run({ code })).outcome).toBe("passed");
      expect((await sandbox.run({ code: writeAndRead })).outcome).toBe("passed");
      expect(fs.statSync(hostDir).mode & 0o777).toBe(0o755);
    } finally {
      await sandbox.close();
    }
  });
});

describe("the scratch quota without a tmpfs (plain mode: a watcher)", () => {
  it("a check that keeps writing is stopped as disk_quota", async () => {
    const sandbox = await InlineSandbox.create({ mode: "plain", processes: 1 });
    try {
      const code = [
        "import time",
        "for index in range(40):",
        "    with open('f%d' % index, 'wb') as handle:",
        "        handle.write(b'x' * (16 * 1024 * 1024))",
        "    time.sleep(0.05)",
      ].join("\n");
      const result = await sandbox.run({ code, timeoutS: 20 });
      expect(result.outcome).toBe("disk_quota");
      expect((await sandbox.run({ code: writeAndRead })).outcome).toBe("passed");
    } finally {
      await sandbox.close();
    }
  });
});

describe("the process limit is per check", () => {
  it("a check using 8 threads passes while a neighbouring check forks 30 sleeping children", async () => {
    const pool = await SandboxPool.create({ threads: 2 });
    try {
      const forker = [
        "import os, time",
        "children = []",
        "for _ in range(30):",
        "    pid = os.fork()",
        "    if pid == 0:",
        "        time.sleep(4)",
        "        os._exit(0)",
        "    children.append(pid)",
        "for pid in children:",
        "    os.waitpid(pid, 0)",
      ].join("\n");
      const threads = [
        "import time",
        "from concurrent.futures import ThreadPoolExecutor",
        "time.sleep(1.5)",
        "with ThreadPoolExecutor(max_workers=8) as executor:",
        "    assert sum(executor.map(lambda value: value * value, range(100))) == 328350",
      ].join("\n");
      const [forked, threaded] = await Promise.all([
        pool.run({ code: forker, timeoutS: 10 }),
        pool.run({ code: threads, timeoutS: 10 }),
      ]);
      expect(`${forked.outcome} ${forked.error ?? ""}`.trim()).toBe("passed");
      expect(`${threaded.outcome} ${threaded.error ?? ""}`.trim()).toBe("passed");
    } finally {
      await pool.close();
    }
  });
});

describe("a failing sandbox is restarted, and what it cannot score is not the model's failure", () => {
  /** `<pool dir>/<zygote>.pid` of every sandbox process this test process runs now. */
  function pidFiles(): string[] {
    const pools = fs
      .readdirSync(os.tmpdir())
      .filter((entry) => entry.startsWith(`perch-sandbox-${process.pid}-`));
    return pools.flatMap((pool) =>
      fs
        .readdirSync(path.join(os.tmpdir(), pool))
        .filter((entry) => entry.endsWith(".pid"))
        .map((entry) => path.join(os.tmpdir(), pool, entry)),
    );
  }

  /** Kills, while `run` is pending, up to `times` zygotes whose pid files `seen` does not hold yet. */
  async function killDuring(run: Promise<unknown>, seen: Set<string>, times: number): Promise<void> {
    let done = false;
    void run.finally(() => (done = true));
    let killed = 0;
    while (!done && killed < times) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      for (const file of pidFiles().filter((entry) => !seen.has(entry))) {
        seen.add(file);
        try {
          process.kill(-Number(fs.readFileSync(file, "utf8")), "SIGKILL");
          killed++;
        } catch {
          // Gone already.
        }
      }
    }
  }

  it("a sandbox that dies under a check is restarted and the check retried on it", async () => {
    const seen = new Set(pidFiles());
    const sandbox = await InlineSandbox.create({ processes: 1 });
    try {
      const run = sandbox.run({ code: `import time\ntime.sleep(1.5)\n${writeAndRead}` });
      await killDuring(run, seen, 1);
      expect(await run).toMatchObject({ outcome: "passed" });
    } finally {
      await sandbox.close();
    }
  });

  it("a sandbox that fails again on the retry gives scoring_error, and health says so", async () => {
    const seen = new Set(pidFiles());
    const pool = await SandboxPool.create({ threads: 1 });
    try {
      expect((await pool.run({ code: writeAndRead })).outcome).toBe("passed");
      expect(pool.healthWarnings()).toEqual([]);
      const run = pool.run({ code: `import time\ntime.sleep(2)\n${writeAndRead}` });
      // The running zygote first, then the fresh one the retry starts.
      await killDuring(run, seen, 2);
      expect(await run).toMatchObject({ outcome: "scoring_error" });
      expect(pool.healthWarnings()).toEqual([
        expect.objectContaining({ code: "scoring_error", message: expect.stringContaining("1 code check") }),
      ]);
      expect((await pool.run({ code: writeAndRead })).outcome).toBe("passed");
    } finally {
      await pool.close();
    }
  });
});

describe("forged passes on real benchmarks", () => {
  let pool: SandboxPool;
  let humanEval: HumanEvalItem;
  let mbpp: MbppItem;
  beforeAll(async () => {
    pool = await SandboxPool.create({ threads: 2 });
    humanEval = (
      await humanEvalBenchmark.loadItems({
        datasets: new LocalFileDatasetReader(fixtureDataset("HumanEval.jsonl.gz")),
      })
    )[0];
    mbpp = (
      await mbppBenchmark.loadItems({
        datasets: new LocalFileDatasetReader(fixtureDataset("mbpp.jsonl"), { wholeFile: true }),
      })
    )[0];
  });
  afterAll(() => pool.close());

  const forge = (forgery: string, wrong: string) =>
    `\`\`\`python\nimport json, os\n${forgery}\n${wrong}\n\`\`\``;
  const forgeries = [
    [
      "the status fd",
      "os.write(3, json.dumps({'kind': 'completed', 'pid': os.getpid()}).encode())\nos._exit(0)",
    ],
    [
      "every open fd",
      "for fd in range(256):\n    try:\n        os.write(fd, ('\\n' + json.dumps({'kind': 'completed', 'pid': os.getpid()}) + '\\n').encode())\n    except OSError:\n        pass\nos._exit(0)",
    ],
    ["an early os._exit(0)", "os._exit(0)"],
  ];

  it.each(forgeries)(
    "HumanEval: a wrong function that forges a pass through %s is not correct",
    async (_how, forgery) => {
      const wrong = `def ${humanEval.entryPoint}(*args, **kwargs):\n    return None`;
      const result = await humanEvalBenchmark.score(humanEval, splitResponse(forge(forgery, wrong)), {
        sandbox: pool,
      });
      expect(result.correct).toBe(false);
    },
  );

  it.each(forgeries)(
    "MBPP: a wrong function that forges a pass through %s is not correct",
    async (_how, forgery) => {
      const entry = /def\s+(\w+)\s*\(/.exec(mbpp.code)![1];
      const wrong = `def ${entry}(*args, **kwargs):\n    return None`;
      const result = await mbppBenchmark.score(mbpp, splitResponse(forge(forgery, wrong)), { sandbox: pool });
      expect(result.correct).toBe(false);
    },
  );
});
