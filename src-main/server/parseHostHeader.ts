import net from "node:net";

// `name[:port]` or `[ipv6][:port]`, nothing else: no user info (`evil@localhost`), path, query,
// fragment, backslash or percent-escape that a URL parser would quietly strip or decode.
const hostPattern = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/;

/** A `Host` header value taken apart; `name` is lower-case, an IPv6 literal without brackets. */
export interface ParsedHost {
  name: string;
  port: number | undefined;
}

/**
 * Parses a `Host` header strictly (RFC 9110 §7.2: `uri-host [ ":" port ]`, without the rarely
 * used percent-encoded or IPvFuture forms); `undefined` for anything else. The check must not
 * ask `new URL()`: it reads `evil.com@localhost` as user `evil.com` at `localhost`.
 */
export function parseHostHeader(value: string): ParsedHost | undefined {
  const match = hostPattern.exec(value);
  if (!match) return undefined;
  const [, ipv6, plainName, portText] = match;
  if (ipv6 !== undefined && !net.isIPv6(ipv6)) return undefined;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && port > 65535) return undefined;
  return { name: (ipv6 ?? plainName ?? "").toLowerCase(), port };
}
