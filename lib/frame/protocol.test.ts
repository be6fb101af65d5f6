import { describe, expect, it } from "vitest";
import { PLAYGROUND_API_BASE } from "@/lib/contract/playground";
import { REPORT_MESSAGE_MAX, REPORT_PATH_MAX, REPORT_REASON_MAX } from "@/lib/contract/reports";
import { BROKER_PATH_MAX, FRAME_HEIGHT_MAX, checkBrokerRequest, isSnapshotTime, parseFrameMessage, refusalResponse } from "./protocol";

const P = PLAYGROUND_API_BASE;
const ok = (method: string, raw: string, base = P) => checkBrokerRequest(method, raw, base);
const refused = (raw: string, base = P) => {
  const r = checkBrokerRequest("GET", raw, base);
  expect(r.ok, raw).toBe(false);
  return r.ok ? 0 : r.status;
};

describe("checkBrokerRequest: methods", () => {
  it("relays GET and HEAD in any case", () => {
    for (const m of ["GET", "get", "HEAD", "head"]) expect(ok(m, `${P}/me`)).toMatchObject({ ok: true, path: "/me" });
  });

  it("refuses every other method with 405", () => {
    for (const m of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE", "", "G ET"]) {
      expect(ok(m, `${P}/me`)).toMatchObject({ ok: false, status: 405, error: "method_not_allowed" });
    }
  });
});

describe("checkBrokerRequest: paths that are relayed", () => {
  it("returns the path relative to the API base, with the parsed query", () => {
    expect(ok("GET", `${P}/crm/customers/companies?limit=5&cursor=abc`)).toEqual({
      ok: true,
      path: "/crm/customers/companies?limit=5&cursor=abc",
      pathname: "/crm/customers/companies",
      search: "?limit=5&cursor=abc",
      endpoint: "/crm/:instance/companies",
    });
  });

  it("works for the saved API base too", () => {
    expect(ok("GET", "/api/me/favourites", "/api")).toMatchObject({ ok: true, path: "/me/favourites" });
    expect(ok("GET", "/api/cx/book?owner=o1&days=7", "/api")).toMatchObject({ ok: true, path: "/cx/book?owner=o1&days=7" });
  });

  it("accepts every registry endpoint, with concrete path values", () => {
    const paths = [
      "/me",
      "/me/home",
      "/connections/tracker/check",
      "/crm/users/summary",
      "/crm/customers/sources",
      "/vendors/tracker/issues?project=Platform%20team",
      "/vendors/coderepo/repos",
      "/vendors/calls/calls",
      "/vendors/calls/calls/detailed",
      "/vendors/calls/calls/call-42/transcript",
      "/vendors/support/conversations",
      "/vendors/crmportal/deals",
      "/cx/owners?activeOnly=true",
      "/cx/districts",
    ];
    for (const p of paths) expect(ok("GET", `${P}${p}`), p).toMatchObject({ ok: true, path: p });
  });

  it("keeps encoded characters other than dots, slashes, backslashes and percent in path values", () => {
    expect(ok("GET", `${P}/vendors/calls/calls/a%20b/transcript`)).toMatchObject({ ok: true, pathname: "/vendors/calls/calls/a%20b/transcript" });
  });

  it("drops an empty query marker", () => {
    expect(ok("GET", `${P}/me?`)).toMatchObject({ ok: true, path: "/me", search: "" });
  });

  it("lets the query carry encoded slashes and percent signs, which cannot change the path", () => {
    expect(ok("GET", `${P}/vendors/tracker/issues?project=a%2Fb%25`)).toMatchObject({ ok: true, search: "?project=a%2Fb%25" });
  });
});

describe("checkBrokerRequest: paths outside the API base", () => {
  it("refuses the base itself, neighbours of the base and other prefixes", () => {
    for (const raw of [P, `${P}`, `${P}?x=1`, `${P}x/me`, `${P}-evil/me`, "/api/me", "/me", "me", "./me", "api/me", ""]) refused(raw);
  });

  it("refuses absolute and protocol-relative URLs, even to the same host", () => {
    for (const raw of [
      `http://127.0.0.1:3100${P}/me`,
      `https://evil.example${P}/me`,
      `//evil.example${P}/me`,
      `///evil.example${P}/me`,
      `http:${P}/me`,
      `javascript:alert(1)//${P}/me`,
      `data:text/plain,${P}/me`,
      `blob:https://x/${P}`,
      "https://dashboard-frame.invalid/dashboards/playground/api/me",
    ]) {
      refused(raw);
    }
  });

  it("refuses playground write, read, and save routes and sign-in", () => {
    for (const raw of [
      "/dashboards/playground/draft",
      "/dashboards/playground/draft/abcdefghijklmnopqrstuvwxyz",
      "/dashboards/playground/draft/abcdefghijklmnopqrstuvwxyz/events",
      "/dashboards/playground/scenarios",
      "/~alice/dashboards/x",
      "/signin",
      "/signout",
      `${P}/../draft`,
      `${P}/../../../signin`,
    ]) {
      refused(raw);
    }
    expect(refused("/~me/x", "/api")).toBe(400);
    expect(refused("/api/~me/save", "/api")).toBe(404);
  });

  it("refuses paths under the base that are not API endpoints with 404", () => {
    for (const raw of [`${P}/nope`, `${P}/me/extra`, `${P}/draft`, `${P}/~me/save`, `${P}/signin`, `${P}/me.json`, `${P}/ME`]) {
      expect(refused(raw), raw).toBe(404);
    }
  });
});

describe("checkBrokerRequest: traversal tricks", () => {
  const tricks = [
    `${P}/../draft`,
    `${P}/./me`,
    `${P}/me/.`,
    `${P}/me/..`,
    `${P}/me/../me`,
    `${P}//me`,
    `${P}/me//`,
    `${P}/me/`,
    `${P}/%2e%2e/draft`,
    `${P}/%2E%2E/draft`,
    `${P}/%2e/me`,
    `${P}/.%2e/draft`,
    `${P}/%2e./draft`,
    `${P}/me%2f..%2f..%2fdraft`,
    `${P}/me%2F..%2F..%2Fdraft`,
    `${P}/me%5c..%5cdraft`,
    `${P}/me%5C..%5Cdraft`,
    `${P}/%252e%252e/draft`,
    `${P}/%25252e%25252e/draft`,
    `${P}/me%00`,
    `${P}/crm/customers%2fsummary`,
    `${P}/..%2fdraft`,
    `${P}\\..\\draft`,
    `${P}/me\\..\\..\\draft`,
    `${P}/\\evil.example/me`,
    `${P}/me\t`,
    `${P}/m\te`,
    `${P}/me\n`,
    `${P}/me\r\n`,
    `${P}/me\u0000`,
    `${P}/me\u007f`,
    `${P}/me\u0085`,
    `${P}/me\u2028`,
    ` ${P}/me`,
    `${P}/me `,
    `${P}/m e`,
    `${P}/me#frag`,
    `${P}/me?x=1#frag`,
    `${P}/\u00e9`,
    `${P}/me;..`,
    `${P}/ｍe`,
    `${P}/me\u200b`,
    `${P}/crm/./customers/summary`,
    `${P}/crm/customers/../users/summary`,
  ];
  for (const raw of tricks) {
    it(`refuses ${JSON.stringify(raw)}`, () => {
      refused(raw);
    });
  }

  it("refuses over-long URLs, and accepts one at the limit", () => {
    const base = `${P}/vendors/tracker/issues?project=`;
    expect(ok("GET", base + "a".repeat(BROKER_PATH_MAX - base.length)).ok).toBe(true);
    expect(refused(base + "a".repeat(BROKER_PATH_MAX - base.length + 1))).toBe(400);
  });

  it("refuses the playground's own query parameters", () => {
    for (const raw of [`${P}/me?scenario=signed-out`, `${P}/me?variant=empty`, `${P}/me?a=1&scenario=x`]) {
      expect(ok("GET", raw)).toMatchObject({ ok: false, status: 400, error: "invalid_query" });
    }
  });

  it("refuses non-string input and malformed API bases", () => {
    expect(checkBrokerRequest("GET", 42 as unknown as string, P).ok).toBe(false);
    expect(checkBrokerRequest(null as unknown as string, `${P}/me`, P).ok).toBe(false);
    for (const base of ["", "/", "/api/", "api", "//evil", "/a/../b", "http://x/api", "/a%2e"]) {
      expect(checkBrokerRequest("GET", `${base}/me`, base), base).toMatchObject({ ok: false });
    }
  });
});

describe("parseFrameMessage", () => {
  it("reads fetch, scroll and snapshot messages", () => {
    expect(parseFrameMessage({ type: "fetch", id: 1, method: "GET", path: `${P}/me`, headers: { Accept: "application/json" } })).toEqual({
      type: "fetch",
      id: 1,
      method: "GET",
      path: `${P}/me`,
      headers: { accept: "application/json" },
    });
    expect(parseFrameMessage({ type: "scroll", y: 120 })).toEqual({ type: "scroll", y: 120 });
    expect(parseFrameMessage({ type: "snapshot" })).toEqual({ type: "snapshot" });
    expect(parseFrameMessage({ type: "snapshot", takenAt: "2025-01-01T00:00:00Z" })).toEqual({ type: "snapshot", takenAt: "2025-01-01T00:00:00Z" });
  });

  it("drops anything else", () => {
    const bad: unknown[] = [
      null,
      "fetch",
      [],
      { type: "init", html: "", apiBase: P },
      { type: "response", id: 1, status: 200, headers: {}, body: "" },
      { type: "fetch", id: "1", method: "GET", path: "/x" },
      { type: "fetch", id: -1, method: "GET", path: "/x" },
      { type: "fetch", id: 1.5, method: "GET", path: "/x" },
      { type: "fetch", id: 1, method: "GET", path: 3 },
      { type: "fetch", id: 1, method: "GET", path: "/x", headers: { a: 1 } },
      { type: "fetch", id: 1, method: "GET", path: "/x", headers: "a" },
      { type: "fetch", id: 1, method: "GET".repeat(10), path: "/x" },
      { type: "scroll", y: -1 },
      { type: "scroll", y: Number.NaN },
      { type: "scroll", y: "1" },
      { type: "snapshot", takenAt: 5 },
      { type: "snapshot", takenAt: null },
      { type: "snapshot", takenAt: "yesterday" },
      { type: "snapshot", takenAt: "2026-11-20T09:00:00" },
    ];
    for (const b of bad) expect(parseFrameMessage(b), JSON.stringify(b)).toBeNull();
  });
});

describe("height notices", () => {
  it("carry a height from 0 to FRAME_HEIGHT_MAX, rounded up to whole pixels", () => {
    expect(parseFrameMessage({ type: "height", height: 1518 })).toEqual({ type: "height", height: 1518 });
    expect(parseFrameMessage({ type: "height", height: 1517.25 })).toEqual({ type: "height", height: 1518 });
    expect(parseFrameMessage({ type: "height", height: 0 })).toEqual({ type: "height", height: 0 });
    expect(parseFrameMessage({ type: "height", height: FRAME_HEIGHT_MAX })).toEqual({ type: "height", height: FRAME_HEIGHT_MAX });
  });

  it("keep nothing but a bounded height: anything else the frame adds is dropped, a bad height refused", () => {
    expect(parseFrameMessage({ type: "height", height: 600, style: "position:fixed", width: 5000 })).toEqual({ type: "height", height: 600 });
    const bad: unknown[] = [
      { type: "height" },
      { type: "height", height: -1 },
      { type: "height", height: FRAME_HEIGHT_MAX + 1 },
      { type: "height", height: 1e308 },
      { type: "height", height: Number.POSITIVE_INFINITY },
      { type: "height", height: Number.NaN },
      { type: "height", height: "600" },
      { type: "height", height: "100vh" },
      { type: "height", height: null },
      { type: "height", height: { valueOf: () => 600 } },
    ];
    for (const b of bad) expect(parseFrameMessage(b), JSON.stringify(b)).toBeNull();
  });
});

describe("snapshot notices", () => {
  it("accept a date, or a date and time with its offset", () => {
    for (const t of ["2026-11-20", "2026-11-20T09:00Z", "2026-11-20T09:00:00Z", "2026-11-20T09:00:00.123Z", "2026-11-20T10:00:00+01:00", "2026-11-20T04:00-05:00"]) {
      expect(isSnapshotTime(t), t).toBe(true);
      expect(parseFrameMessage({ type: "snapshot", takenAt: t }), t).toEqual({ type: "snapshot", takenAt: t });
    }
  });

  it("refuse times without an offset, impossible dates and anything that is not ISO-8601", () => {
    for (const t of [
      "2026-11-20T09:00:00",
      "2026-11-20 09:00:00Z",
      "2026-02-31",
      "2026-13-01",
      "2026-11-20T25:00Z",
      "20261120",
      "Nov 20 2026",
      "1795132800000",
      "2026-11-20T09:00:00Z<script>",
      " 2026-11-20",
      "",
      "2026-11-20T09:00:00.1234567891Z",
    ]) {
      expect(isSnapshotTime(t), t).toBe(false);
      expect(parseFrameMessage({ type: "snapshot", takenAt: t }), t).toBeNull();
    }
    expect(isSnapshotTime(1795132800000)).toBe(false);
  });

  it("carry only the time, whatever else the frame adds", () => {
    expect(parseFrameMessage({ type: "snapshot", takenAt: "2026-11-20", html: "<b>x</b>", extra: 1 })).toEqual({ type: "snapshot", takenAt: "2026-11-20" });
  });
});

describe("refusalResponse", () => {
  it("answers in the error envelope", () => {
    const r = refusalResponse(7, 429, "rate_limited", "Slow down.");
    expect(r).toMatchObject({ type: "response", id: 7, status: 429, headers: { "content-type": "application/json" } });
    expect(JSON.parse(r.body)).toEqual({ error: "rate_limited", hint: "Slow down." });
  });
});

describe("render notices from the frame", () => {
  it("read errors, console lines, refusals and the painted answer", () => {
    expect(parseFrameMessage({ type: "error", kind: "rejection", message: "Uncaught (in promise) TypeError: no", line: 4, column: 9 })).toEqual({
      type: "error",
      kind: "rejection",
      message: "Uncaught (in promise) TypeError: no",
      line: 4,
      column: 9,
    });
    expect(parseFrameMessage({ type: "error", kind: "error", message: "x", line: null, column: 7 })).toEqual({ type: "error", kind: "error", message: "x", line: null, column: null });
    expect(parseFrameMessage({ type: "console", level: "info", message: "one\ttwo\nthree" })).toEqual({ type: "console", level: "info", message: "one\ttwo\nthree" });
    // A line without a level the console knows did not come from the bootstrap.
    expect(parseFrameMessage({ type: "console", message: "x" })).toBeNull();
    expect(parseFrameMessage({ type: "console", level: "trace", message: "x" })).toBeNull();
    expect(parseFrameMessage({ type: "refusal", method: null, path: "https://cdn.example/x.png", error: "blocked_by_policy", reason: "r" })).toMatchObject({ method: null });
    expect(parseFrameMessage({ type: "painted", id: 3 })).toEqual({ type: "painted", id: 3 });
  });

  it("clip what is too long and blank out control characters, so the host never holds more than a report takes", () => {
    const long = parseFrameMessage({ type: "console", level: "log", message: "x".repeat(100_000) });
    expect(long).toEqual({ type: "console", level: "log", message: "x".repeat(REPORT_MESSAGE_MAX) });
    const refusal = parseFrameMessage({ type: "refusal", method: "POST", path: "/p".repeat(1_000), error: "method_not_allowed", reason: "r".repeat(1_000) });
    expect(refusal).toMatchObject({ path: "/p".repeat(REPORT_PATH_MAX / 2), reason: "r".repeat(REPORT_REASON_MAX) });
    expect(parseFrameMessage({ type: "error", kind: "error", message: "a\u0000b\u001bc\u007f", line: 1, column: 1 })).toMatchObject({ message: "a b c " });
  });

  it("drop anything shaped otherwise: it comes from the dashboard's own code", () => {
    const bad: unknown[] = [
      { type: "error", kind: "warning", message: "m", line: 1, column: 1 },
      { type: "error", kind: "error", message: "", line: 1, column: 1 },
      { type: "error", kind: "error", message: 5, line: 1, column: 1 },
      { type: "error", kind: "error", message: "m", line: 0, column: 1 },
      { type: "error", kind: "error", message: "m", line: 1.5, column: 1 },
      { type: "error", kind: "error", message: "m", line: "1", column: 1 },
      { type: "error", kind: "error", message: "m", line: 1 },
      { type: "console", level: "log", message: { toString: () => "x" } },
      { type: "console", level: "log", message: "" },
      { type: "refusal", method: "post", path: "/x", error: "method_not_allowed", reason: "r" },
      { type: "refusal", method: "POST", path: "/x", error: "Not A Code", reason: "r" },
      { type: "refusal", method: "POST", path: "/x", error: "method_not_allowed" },
      { type: "refusal", method: undefined, path: "/x", error: "method_not_allowed", reason: "r" },
      { type: "painted", id: -1 },
      { type: "painted", id: "1" },
      { type: "paint", id: 1 },
    ];
    for (const m of bad) expect(parseFrameMessage(m), JSON.stringify(m)).toBeNull();
  });
});
