import { describe, expect, it } from "vitest";
import { createServer } from "../../../src-main/server/createServer.js";
import { parseHostHeader } from "../../../src-main/server/parseHostHeader.js";
import { isLoopbackHost, isSameOrigin } from "../../../src-main/server/registerSecurity.js";

async function makeApp(apiKey?: string) {
  return createServer({
    apiKey,
    allowRemoteAdmin: false,
    register: (app) => {
      app.get("/admin/api/settings", async () => ({ ok: true }));
      app.get("/v1/models", async () => ({ object: "list", data: [] }));
    },
  });
}

// What a URL parser reads as loopback but is another site's name (or no host at all).
const crafted = [
  "evil.com@localhost",
  "evil.com@localhost:11435",
  "localhost\\@evil.com",
  "localhost\\@evil.com:11435",
  "%6c%6f%63%61%6c%68%6f%73%74",
  "%31%32%37.0.0.1:11435",
  "127.0.0.1:11435/evil",
  "localhost:11435/evil.com",
  "localhost/.evil.com",
  "localhost?.evil.com",
  "localhost#.evil.com",
  "localhost:",
  "localhost:port",
  "localhost:99999",
  "localhost:11435:1",
  "::1",
  "[::1",
  "[::1]x",
  "[localhost]",
  "localhost evil.com",
  "",
];

// Well-formed names, but not address literals: a URL parser turns them into 127.0.0.1, DNS may not.
const numericNames = ["127.1", "2130706433", "0x7f.0.0.1"];

describe("Host header parsing", () => {
  it("takes apart only host[:port], with IPv6 in brackets", () => {
    expect(parseHostHeader("LocalHost:8080")).toEqual({ name: "localhost", port: 8080 });
    expect(parseHostHeader("127.0.0.1")).toEqual({ name: "127.0.0.1", port: undefined });
    expect(parseHostHeader("[::1]:11435")).toEqual({ name: "::1", port: 11435 });
    expect(parseHostHeader("[::ffff:127.0.0.1]")).toEqual({ name: "::ffff:127.0.0.1", port: undefined });
    for (const host of crafted) expect(parseHostHeader(host), host).toBeUndefined();
  });

  it("counts as loopback only localhost and loopback address literals", () => {
    for (const host of ["localhost", "localhost:1", "127.0.0.1:11435", "127.0.0.2", "[::1]:11435"]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of [
      ...crafted,
      ...numericNames,
      "evil.example",
      "127.0.0.1.nip.io",
      "localhost.evil.example",
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });

  it("judges Origin against the strictly parsed Host", () => {
    expect(isSameOrigin("http://localhost:8080", "localhost:8080")).toBe(true);
    expect(isSameOrigin("http://[::1]:8080", "[::1]:8080")).toBe(true);
    expect(isSameOrigin("http://localhost", "localhost:80")).toBe(true);
    expect(isSameOrigin("http://localhost:8080", "evil.com@localhost:8080")).toBe(false);
    expect(isSameOrigin("http://localhost:8080", "localhost:8080/evil")).toBe(false);
    expect(isSameOrigin("http://localhost:8081", "localhost:8080")).toBe(false);
  });

  it("refuses admin requests with each crafted Host, with or without an API key", async () => {
    for (const apiKey of [undefined, "k"]) {
      const app = await makeApp(apiKey);
      const auth = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
      for (const host of [...crafted, ...numericNames].filter((value) => value !== "")) {
        const answer = await app.inject({
          method: "GET",
          url: "/admin/api/settings",
          headers: { ...auth, host },
        });
        expect(answer.statusCode, host).toBe(403);
        expect(answer.json().error.code, host).toBe("forbidden");
      }
      const fine = await app.inject({
        method: "GET",
        url: "/admin/api/settings",
        headers: { ...auth, host: "localhost:11435" },
      });
      expect(fine.statusCode).toBe(200);
    }
  });
});

describe("Sec-Fetch-Site on admin routes", () => {
  it("refuses what a page on another site sent; same-origin, none and no header pass", async () => {
    const app = await makeApp();
    const get = (headers: Record<string, string>) =>
      app.inject({
        method: "GET",
        url: "/admin/api/settings",
        headers: { host: "localhost:11435", ...headers },
      });
    for (const site of ["cross-site", "same-site", "same-origin, cross-site"]) {
      const answer = await get({ "sec-fetch-site": site });
      expect(answer.statusCode, site).toBe(403);
      expect(answer.json().error.code).toBe("forbidden");
      expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    }
    const passing: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      {},
    ];
    for (const headers of passing) {
      expect((await get(headers)).statusCode, JSON.stringify(headers)).toBe(200);
    }
    // /v1 is open to every origin by design.
    const v1 = await app.inject({
      method: "GET",
      url: "/v1/models",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(v1.statusCode).toBe(200);
  });
});
