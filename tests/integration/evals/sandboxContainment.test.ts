import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InlineSandbox } from "../../../src-main/evals/scoring/InlineSandbox.js";
import { SandboxPool } from "../../../src-main/evals/scoring/SandboxPool.js";

/*
 * Generated code is untrusted: each attack below must be stopped and typed, the host (this
 * process, its files, its network peers) unaffected, and no process left behind.
 */

const secret = `perch-secret-${process.pid}-${Date.now()}`;
let pool: SandboxPool;
let server: net.Server;
let port = 0;
let connections = 0;
let hostDir = "";

interface Process {
  pid: number;
  ppid: number;
  pgid: number;
  args: string;
}

function processes(): Process[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      const [pid, ppid, pgid, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), args: args.join(" ") };
    });
}

/** Every process below this one that is not part of a sandbox zygote (whose group a direct child leads). */
function strayDescendants(): Process[] {
  const all = processes();
  const descendants: Process[] = [];
  let frontier = [process.pid];
  while (frontier.length > 0) {
    const children = all.filter((entry) => frontier.includes(entry.ppid));
    descendants.push(...children);
    frontier = children.map((entry) => entry.pid);
  }
  const leaders = new Set(
    descendants
      .filter((entry) => entry.ppid === process.pid && entry.pgid === entry.pid)
      .map((entry) => entry.pid),
  );
  return descendants.filter(
    (entry) =>
      !leaders.has(entry.pgid) && !/^(ps|node|esbuild)\b/.test(path.basename(entry.args.split(" ")[0])),
  );
}

beforeAll(async () => {
  process.env.PERCH_CONTAINMENT_SECRET = secret;
  server = net.createServer((socket) => {
    connections++;
    socket.end("hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as net.AddressInfo).port;
  hostDir = fs.mkdtempSync(path.join(os.tmpdir(), "perch-host-"));
  // World-writable: only the sandbox can keep a check from writing here.
  fs.chmodSync(hostDir, 0o777);
  pool = await SandboxPool.create({ threads: 2 });
});

afterAll(async () => {
  await pool.close();
  server.close();
  fs.rmSync(hostDir, { recursive: true, force: true });
  delete process.env.PERCH_CONTAINMENT_SECRET;
});

describe(`sandbox containment`, () => {
  it("reports its isolation mode (a Linux namespace sandbox here)", () => {
    if (process.platform === "linux") expect(pool.setup.mode).toMatch(/^linux-/);
  });

  it("cannot open a network socket, not even to this host's loopback", async () => {
    const code = [
      "import socket",
      "for address in [('127.0.0.1', PORT), ('1.1.1.1', 80)]:",
      "    try:",
      "        socket.create_connection(address, timeout=2).close()",
      "        print('connected', address)",
      "    except OSError as error:",
      "        print('blocked', address, error.errno)",
      "socket.create_connection(('127.0.0.1', PORT), timeout=2)",
    ]
      .join("\n")
      .replaceAll("PORT", String(port));
    const result = await pool.run({ code });
    expect(result.outcome).toBe("runtime_error");
    expect(result.stdout).not.toContain("connected");
    expect(result.error).toMatch(/OSError|Network is unreachable|Operation not permitted/);
    expect(connections).toBe(0);
  });

  it("cannot write outside its own temp dir, but can inside it", async () => {
    const target = path.join(hostDir, "owned");
    const code = [
      "import os",
      "open('mine.txt', 'w').write('ok')",
      "print(open('mine.txt').read(), os.getcwd() == os.environ['TMPDIR'])",
      "for target in [TARGET, os.path.join('/tmp', 'perch-escape-' + str(os.getpid())), os.path.expanduser('~/../perch-escape')]:",
      "    try:",
      "        open(target, 'w').write('escaped')",
      "        print('wrote', target)",
      "    except OSError as error:",
      "        print('denied', target, error.errno)",
      "open(TARGET, 'w')",
    ]
      .join("\n")
      .replaceAll("TARGET", JSON.stringify(target));
    const result = await pool.run({ code });
    expect(result.stdout.startsWith("ok True")).toBe(true);
    expect(result.stdout).not.toContain("wrote");
    expect(result.outcome).toBe("runtime_error");
    expect(fs.existsSync(target)).toBe(false);
  });

  it("a fork bomb is stopped (process limit, then the timeout) and leaves nothing behind", async () => {
    const crashing = await pool.run({ code: "import os\nwhile True:\n    os.fork()", timeoutS: 2 });
    expect(["runtime_error", "timeout"]).toContain(crashing.outcome);
    const stubborn = await pool.run({
      code: "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
      timeoutS: 2,
    });
    expect(stubborn.outcome).toBe("timeout");
    expect(strayDescendants()).toEqual([]);
  });

  it("unbounded memory is a memory failure", async () => {
    const result = await pool.run({
      code: "blocks = []\nwhile True:\n    blocks.append(bytearray(50 * 1024 * 1024))",
    });
    expect(result.outcome).toBe("memory");
  });

  it("printing without end is stopped at the output limit", async () => {
    const result = await pool.run({
      code: "while True:\n    print('x' * 1000)",
      outputLimitBytes: 64 * 1024,
    });
    expect(result).toMatchObject({
      outcome: "runtime_error",
      error: "output limit exceeded (over 65536 bytes)",
    });
    expect(result.stdout.length).toBeLessThanOrEqual(64 * 1024);
  });

  it("sleeping forever is a timeout within the wall-clock limit", async () => {
    const started = performance.now();
    const result = await pool.run({ code: "import time\ntime.sleep(10**6)", timeoutS: 1 });
    expect(result.outcome).toBe("timeout");
    expect((performance.now() - started) / 1000).toBeLessThan(3 * 1 + 1 + 3);
  });

  it("cannot kill its parent or anything else; the pool keeps working", async () => {
    const code = [
      "import os, signal",
      "results = []",
      `for pid in [os.getppid(), ${process.pid}, -1, 1]:`,
      "    try:",
      "        os.kill(pid, signal.SIGKILL)",
      "        results.append('sent')",
      "    except OSError as error:",
      "        results.append(error.errno)",
      "print(results)",
      "raise SystemExit(1)",
    ].join("\n");
    const result = await pool.run({ code });
    expect(result.outcome).toBe("runtime_error");
    const after = await Promise.all([
      pool.run({ code: "assert 1 + 1 == 2" }),
      pool.run({ code: "assert 2 + 2 == 4" }),
    ]);
    expect(after.map((check) => check.outcome)).toEqual(["passed", "passed"]);
  });

  it("cannot read the server's environment", async () => {
    const code = [
      "import glob, os",
      "print(dict(os.environ))",
      `for name in glob.glob('/proc/*/environ') + ['/proc/${process.pid}/environ', '/proc/${process.ppid}/environ']:`,
      "    try:",
      "        print(name, open(name, 'rb').read().decode('utf-8', 'replace'))",
      "    except OSError as error:",
      "        print(name, 'denied', error.errno)",
    ].join("\n");
    const result = await pool.run({ code });
    expect(result.outcome).toBe("passed");
    expect(result.stdout).toContain("PATH");
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).not.toContain("PERCH_CONTAINMENT_SECRET");
  });

  it("a daemon that escapes its process group is killed with the check", async () => {
    const marker = `${7000 + (process.pid % 1000)}.25`;
    const code = [
      "import os, time",
      "if os.fork() == 0:",
      "    os.setsid()",
      "    if os.fork() == 0:",
      `        os.execv('/bin/sleep', ['sleep', '${marker}'])`,
      "    os._exit(0)",
      "time.sleep(0.2)",
    ].join("\n");
    expect((await pool.run({ code })).outcome).toBe("passed");
    expect(processes().filter((entry) => entry.args.includes(`sleep ${marker}`))).toEqual([]);
    expect(strayDescendants()).toEqual([]);
  });

  it("closing a pool leaves no sandbox process (not even a zombie) and no scratch dir", async () => {
    const before = new Set(processes().map((entry) => entry.pid));
    const other = await SandboxPool.create({ threads: 2 });
    await Promise.all([other.run({ code: "pass" }), other.run({ code: "pass" })]);
    const started = processes().filter((entry) => !before.has(entry.pid) && entry.ppid === process.pid);
    expect(started.filter((entry) => /unshare|python|sandbox-exec/.test(entry.args)).length).toBe(2);
    const scratch = fs
      .readdirSync(os.tmpdir())
      .filter((name) => name.startsWith(`perch-sandbox-${process.pid}-`));
    await other.close();
    const alive = new Set(processes().map((entry) => entry.pid));
    expect(
      started.filter((entry) => alive.has(entry.pid) && /unshare|python|sandbox-exec/.test(entry.args)),
    ).toEqual([]);
    const left = fs
      .readdirSync(os.tmpdir())
      .filter((name) => name.startsWith(`perch-sandbox-${process.pid}-`));
    expect(left.length).toBe(scratch.length - 1);
  });
});

// What a non-root user gets: the same namespaces through an unprivileged user namespace.
describe.runIf(process.platform === "linux")("sandbox containment in the user-namespace mode", () => {
  it("denies network, host writes and remounting, and hides the environment", async () => {
    const sandbox = await InlineSandbox.create({ mode: "linux-user" });
    try {
      const target = path.join(hostDir, "owned-by-user-mode");
      const attacks = await Promise.all([
        sandbox.run({ code: `import socket\nsocket.create_connection(('127.0.0.1', ${port}), timeout=2)` }),
        sandbox.run({ code: `open(${JSON.stringify(target)}, 'w').write('x')` }),
        sandbox.run({
          code: "import ctypes\nlib = ctypes.CDLL(None, use_errno=True)\nassert lib.mount(None, b'/', None, 32 | 4096, None) == 0, ctypes.get_errno()",
        }),
        sandbox.run({
          code: [
            "import glob, os",
            "print(dict(os.environ))",
            "for name in glob.glob('/proc/*/environ'):",
            "    try:",
            "        print(open(name, 'rb').read())",
            "    except OSError:",
            "        pass",
          ].join("\n"),
        }),
      ]);
      expect(attacks.map((attack) => attack.outcome)).toEqual([
        "runtime_error",
        "runtime_error",
        "wrong_answer",
        "passed",
      ]);
      expect(attacks[3].stdout).not.toContain(secret);
      expect(connections).toBe(0);
      expect(fs.existsSync(target)).toBe(false);
    } finally {
      await sandbox.close();
    }
  });
});
