import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import { PerchError } from "../base/PerchError.js";
import { readInstanceId } from "../settings/instanceId.js";

/**
 * Turns a failed `listen` into a sentence: for a taken port, who holds it (when that is cheap to
 * learn: another Perch answering /health, /proc on Linux, lsof elsewhere) and how to pick another;
 * for a host that is no address of this machine, what to give instead.
 */
export async function explainListenError(
  error: unknown,
  host: string,
  port: number,
  /** The base folder of the server that failed to start: tells its own server from another's. */
  basePath?: string,
): Promise<unknown> {
  const code = (error as { code?: string } | null)?.code;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || code === "EADDRNOTAVAIL") {
    const what =
      code === "EADDRNOTAVAIL"
        ? "is not an address of this machine"
        : "is no host name or address known here";
    return new PerchError(
      "invalid_request",
      `Cannot listen on ${host}: it ${what} (${code}). Give --host (or "host" in settings.json) one of ` +
        `this machine's: 127.0.0.1 (this machine only), 0.0.0.0 (every network interface), or an interface's address.`,
    );
  }
  if (code === "EACCES") {
    return new PerchError(
      "forbidden",
      `Not allowed to listen on ${host}:${port} (ports below 1024 need privileges). Pick another: perch serve --port 11435`,
    );
  }
  if (code !== "EADDRINUSE") return error;
  const holder = (await perchAt(host, port, basePath)) ?? (await processHolding(port));
  return new PerchError(
    "conflict",
    `Port ${port} on ${host} is already in use${holder ? ` by ${holder}` : ""}. ` +
      `Pick another with \`perch serve --port <n>\` (--port 0 picks a free one) or set "port" in settings.json.`,
  );
}

async function perchAt(host: string, port: number, basePath: string | undefined): Promise<string | null> {
  const reachable =
    host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "[::1]" : host.includes(":") ? `[${host}]` : host;
  try {
    const response = await fetch(`http://${reachable}:${port}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await response.json()) as { status?: unknown; instance?: unknown };
    if (body.status !== "ok") return null;
    const own = basePath ? readInstanceId(basePath) : null;
    if (own !== null && body.instance === own)
      return "this base folder's Perch server (see it with `perch ps`)";
    // `perch ps` looks for this base's server and would not take another's: PERCH_HOST names it.
    return `another Perch server, of another base folder (see it with \`PERCH_HOST=${reachable}:${port} perch ps\`)`;
  } catch {
    return null;
  }
}

async function processHolding(port: number): Promise<string | null> {
  const pid = process.platform === "linux" ? linuxListener(port) : await lsofListener(port);
  if (!pid) return null;
  const name = commandOf(pid);
  return name ? `${name} (pid ${pid})` : `pid ${pid}`;
}

/** /proc/net/tcp{,6} lists listening sockets by inode; /proc/<pid>/fd links name the owner. */
function linuxListener(port: number): number | null {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT, state 0A is LISTEN, inode is field 9.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === "0A" && fields[9]) inodes.add(fields[9]);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of safeReaddir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    for (const fd of safeReaddir(`/proc/${entry}/fd`)) {
      try {
        const target = fs.readlinkSync(`/proc/${entry}/fd/${fd}`);
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode && inodes.has(inode)) return Number(entry);
      } catch {
        // The process ended or is not ours to read.
      }
    }
  }
  return null;
}

async function lsofListener(port: number): Promise<number | null> {
  try {
    const { stdout } = await promisify(execFile)("lsof", ["-nP", `-iTCP:${port}`, "-sTCP:LISTEN", "-t"], {
      timeout: 2000,
    });
    const pid = Number(stdout.trim().split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function commandOf(pid: number): string | null {
  try {
    const parts = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    return parts.slice(0, 3).join(" ").slice(0, 120) || null;
  } catch {
    return null;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
