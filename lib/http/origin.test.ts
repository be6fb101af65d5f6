import { describe, expect, it } from "vitest";
import { hostOf } from "./hosts";
import { notCrossSite, requestOrigin, safeNextPath, sameOriginBrowserRequest, trustedOrigin } from "./origin";
import { LOCAL_ADDRESS_HEADER } from "./peer-stamp";

const req = (headers: Record<string, string>) => new Request("http://app.test/x", { method: "POST", headers });

describe("origin checks", () => {
  it("lets same-origin browsers and non-browser clients through, and nothing cross-site", () => {
    expect(notCrossSite(req({}))).toBe(true);
    expect(notCrossSite(req({ origin: "http://app.test", "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(notCrossSite(req({ origin: "null" }))).toBe(false);
    expect(notCrossSite(req({ origin: "http://evil.test" }))).toBe(false);
    expect(notCrossSite(req({ "sec-fetch-site": "cross-site" }))).toBe(false);
    expect(notCrossSite(req({ "sec-fetch-site": "same-site" }))).toBe(false);
    expect(notCrossSite(req({ "sec-fetch-site": "cross-site", origin: "http://app.test" }))).toBe(false);
  });

  it("accepts a same-origin form post whose Origin a no-referrer policy turned into null", () => {
    expect(notCrossSite(req({ origin: "null", "sec-fetch-site": "same-origin" }))).toBe(true);
  });

  it("takes the origin from the Host header the browser sent", () => {
    const r = new Request("http://localhost:3000/x", { method: "POST", headers: { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" } });
    expect(requestOrigin(r)).toBe("http://127.0.0.1:3000");
    expect(notCrossSite(r)).toBe(true);
    expect(requestOrigin(new Request("http://localhost:3000/x", { headers: { host: "bad host/" } }))).toBe("http://localhost:3000");
  });

  it("uses the configured public origin when there is one", () => {
    expect(notCrossSite(req({ origin: "https://dash.example.test" }), "https://dash.example.test")).toBe(true);
    expect(notCrossSite(req({ origin: "http://app.test" }), "https://dash.example.test")).toBe(false);
  });

  it("requires both signals for a same-origin browser request", () => {
    expect(sameOriginBrowserRequest(req({ origin: "http://app.test", "sec-fetch-site": "same-origin" }))).toBe(true);
    expect(sameOriginBrowserRequest(req({ origin: "http://app.test" }))).toBe(false);
    expect(sameOriginBrowserRequest(req({ "sec-fetch-site": "same-origin" }))).toBe(false);
  });

  it("keeps next paths on this site", () => {
    expect(safeNextPath("/docs?x=1#y")).toBe("/docs?x=1#y");
    for (const bad of [null, undefined, "", "docs", "//evil.test", "/\\evil.test", "https://evil.test", "/a\nb"]) {
      expect(safeNextPath(bad)).toBe("/");
    }
  });

  it("hands out only origins it can believe: PUBLIC_ORIGIN, loopback hosts, or the address it was reached at", () => {
    const at = (host: string, headers: Record<string, string> = {}) => new Request("http://127.0.0.1:3000/x", { headers: { host, ...headers } });
    for (const host of ["127.0.0.1:3000", "127.255.0.9", "localhost", "LOCALHOST:8080", "[::1]:3000", "[0:0:0:0:0:0:0:1]:1"]) {
      expect(trustedOrigin(at(host)), host).toBe(`http://${host.toLowerCase()}`);
    }
    for (const host of ["evil.example", "evil.example:3000", "localhost.evil.example", "127.0.0.1.evil.example", "128.0.0.1", "[::2]", "10.0.0.5:3000", "a b", "127.0.0.1:99999", ""]) {
      expect(() => trustedOrigin(at(host)), host).toThrow(expect.objectContaining({ code: "untrusted_host", status: 400 }));
    }
    expect(trustedOrigin(at("evil.example"), "https://dash.example.test")).toBe("https://dash.example.test");

    // The listening address counts only when the server itself stamped it. Whether the stamp is
    // in place is process-wide, and other files in this worker may have installed it.
    const stamped = { [LOCAL_ADDRESS_HEADER]: hostOf("10.0.0.5", 3000) };
    const holder = globalThis as { __ddPeerStamp?: boolean };
    const was = holder.__ddPeerStamp;
    try {
      holder.__ddPeerStamp = false;
      expect(() => trustedOrigin(at("10.0.0.5:3000", stamped))).toThrow(expect.objectContaining({ code: "untrusted_host" }));
      holder.__ddPeerStamp = true;
      expect(trustedOrigin(at("10.0.0.5:3000", stamped))).toBe("http://10.0.0.5:3000");
      expect(() => trustedOrigin(at("10.0.0.5:3001", stamped))).toThrow(expect.objectContaining({ code: "untrusted_host" }));
      expect(trustedOrigin(at("[fe80::1]:3000", { [LOCAL_ADDRESS_HEADER]: hostOf("FE80::1", 3000) }))).toBe("http://[fe80::1]:3000");
      expect(trustedOrigin(at("192.0.2.1:3000", { [LOCAL_ADDRESS_HEADER]: hostOf("::ffff:192.0.2.1", 3000) }))).toBe("http://192.0.2.1:3000");
    } finally {
      holder.__ddPeerStamp = was;
    }
  });
});
