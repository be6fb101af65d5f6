import { describe, expect, it } from "vitest";
import { notCrossSite, requestOrigin, safeNextPath, sameOriginBrowserRequest } from "./origin";

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
});
