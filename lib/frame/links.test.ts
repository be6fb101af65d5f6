import { describe, expect, it } from "vitest";
import { answerUrls, decideLink, LINK_URL_MAX, LinkLedger } from "./links";
import { parseFrameMessage } from "./protocol";

const ORIGIN = "https://dash.example";
const FRAME = "/dashboards/frame";

const ledgerOf = (...bodies: unknown[]) => {
  const l = new LinkLedger();
  for (const b of bodies) l.addAnswer(JSON.stringify(b));
  return l;
};

describe("answerUrls", () => {
  it("takes every string value that is an absolute http(s) address, anywhere in the answer, once", () => {
    const body = { issues: [{ url: "https://tracker.demo.test/issue/ENG-1", title: "see https://x.example" }, { url: "https://tracker.demo.test/issue/ENG-1" }], repo: { nested: [["http://code.demo.test/a/b"]] } };
    expect(answerUrls(JSON.stringify(body))).toEqual(["https://tracker.demo.test/issue/ENG-1", "http://code.demo.test/a/b"]);
  });

  it("takes no keys, other schemes, credentials, spaces or overlong addresses", () => {
    const body = {
      "https://key.example/": 1,
      a: "javascript:alert(1)",
      b: "data:text/html,x",
      c: "https://user:pw@example.com/x",
      d: "https://example.com/a b",
      e: `https://example.com/${"x".repeat(LINK_URL_MAX)}`,
      f: "//example.com/x",
      g: "/relative",
    };
    expect(answerUrls(JSON.stringify(body))).toEqual([]);
    expect(answerUrls("not json https://example.com")).toEqual([]);
  });

  it("walks an answer nested deeper than the call stack without failing", () => {
    const deep = `${"[".repeat(20_000)}"https://deep.example/x"${"]".repeat(20_000)}`;
    expect(answerUrls(deep)).toEqual(["https://deep.example/x"]);
  });
});

describe("decideLink", () => {
  const ledger = ledgerOf({ url: "https://tracker.demo.test/issue/ENG-1" });

  it("opens exactly an address an answer named", () => {
    expect(decideLink("https://tracker.demo.test/issue/ENG-1", ledger, ORIGIN, FRAME)).toEqual({ ok: true, url: "https://tracker.demo.test/issue/ENG-1", kind: "answer" });
  });

  it("refuses anything but exactly that address", () => {
    for (const href of [
      "https://tracker.demo.test/issue/ENG-2",
      "https://tracker.demo.test/issue/ENG-1?leak=1",
      "https://tracker.demo.test/issue/ENG-1#x",
      "HTTPS://tracker.demo.test/issue/ENG-1",
      " https://tracker.demo.test/issue/ENG-1",
      "http://127.0.0.1:9/x",
      "javascript:alert(1)",
      "",
    ]) {
      const d = decideLink(href, ledger, ORIGIN, FRAME);
      expect(d.ok, href).toBe(false);
      if (!d.ok) expect(d.reason).toContain("URL from an API answer");
    }
    expect(decideLink(42, ledger, ORIGIN, FRAME).ok).toBe(false);
  });

  it("opens pages of this site that only show something, and nothing that acts or leaves", () => {
    const site = (href: string) => decideLink(href, new LinkLedger(), ORIGIN, FRAME);
    expect(site("/docs")).toEqual({ ok: true, url: `${ORIGIN}/docs`, kind: "site", path: "/docs" });
    expect(site("/docs/playground#drafts")).toMatchObject({ ok: true, path: "/docs/playground#drafts" });
    expect(site(`${ORIGIN}/~/csm/book?p.district=North&kiosk=1`)).toMatchObject({ ok: true, path: "/~/csm/book?p.district=North&kiosk=1" });
    expect(site("/")).toMatchObject({ ok: true, path: "/" });
    for (const href of [
      "/signout",
      "/signin?next=https://evil.example",
      "/oauth/authorize?redirect_uri=https://evil.example/cb&state=secret",
      "/connections/tracker/connect",
      "/api/me",
      "/dashboards/frame",
      "/~/csm/book?next=https://evil.example",
      "/~/csm/book/drawn",
      "//evil.example/docs",
      "https://evil.example/docs",
      "details.html",
    ]) {
      expect(site(href).ok, href).toBe(false);
    }
  });
});

describe("LinkLedger", () => {
  it("keeps only what answers said, and stays bounded", () => {
    const l = new LinkLedger();
    l.addAnswer(JSON.stringify(Array.from({ length: 12_000 }, (_, i) => `https://x.example/${i}`)));
    expect(l.size).toBe(10_000);
    expect(l.has("https://x.example/0")).toBe(true);
    expect(l.has("https://x.example/11999")).toBe(false);
  });
});

describe("the frame's link request", () => {
  it("is parsed with its address and how it was asked for, and nothing else", () => {
    expect(parseFrameMessage({ type: "link", href: "https://x.example", via: "click", extra: 1 })).toEqual({ type: "link", href: "https://x.example", via: "click" });
    expect(parseFrameMessage({ type: "link", href: "x", via: "open" })).toEqual({ type: "link", href: "x", via: "open" });
    expect(parseFrameMessage({ type: "link", href: 1, via: "click" })).toBeNull();
    expect(parseFrameMessage({ type: "link", href: "x", via: "navigate" })).toBeNull();
    expect(parseFrameMessage({ type: "link", href: "x".repeat(LINK_URL_MAX + 2), via: "click" })).toBeNull();
  });
});
