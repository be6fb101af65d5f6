import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUser } from "@/lib/auth/users";
import { startSession } from "@/lib/auth/session";
import { CSRF_HEADER, csrfTokenFor } from "@/lib/auth/csrf";
import type { HumanDeps } from "@/lib/saved/human";
import { savedRoutes } from "@/lib/saved/routes";
import { newSavedAnalysis, newSavedReads, trustedAuthors, trusts } from "@/lib/saved/trust";
import { backends, testSealer } from "../support/backends";

// Trusting an author lets their dashboards run on one's live data without the consent screen.
// It is a human act from one's own page, like saving: anything else is refused and writes nothing.

const origin = "http://app.test";

describe.each(backends)("trusting authors on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let deps: HumanDeps;
  let viewer: { id: number; token: string; csrf: string };
  let author: { id: number; token: string; csrf: string };

  async function person(email: string) {
    const id = await upsertUser(h.db, { email, name: email, groups: [] });
    const { token } = await startSession(h.db, id, 3_600_000);
    return { id, token, csrf: csrfTokenFor(testSealer, token) };
  }

  function post(body: unknown, who = viewer, extra: Record<string, string> = {}, method = "POST") {
    const headers = { "content-type": "application/json", host: "app.test", cookie: `dd_session=${who.token}`, origin, "sec-fetch-site": "same-origin", [CSRF_HEADER]: who.csrf, ...extra };
    return savedRoutes(async () => deps).trust[method as "POST"](new Request(`${origin}/account/trust`, { method, headers, body: method === "POST" ? JSON.stringify(body) : null }));
  }

  beforeAll(async () => {
    h = await backend.open();
    deps = { db: h.db, sealer: testSealer };
    viewer = await person("member@demo.test");
    author = await person("csm@demo.test");
  });
  afterAll(async () => {
    await h.close();
  });

  it("adds and removes an author, answering the list", async () => {
    expect(await trusts(h.db, viewer.id, author.id)).toBe(false);
    const added = await post({ op: "add", handle: "csm" });
    expect(added.status).toBe(200);
    const body = await added.json();
    // Made by the person at this site's own pages, and recorded as such.
    expect(body.authors).toEqual([{ handle: "csm", name: "csm@demo.test", since: expect.any(String), madeVia: "site" }]);
    expect(await trusts(h.db, viewer.id, author.id)).toBe(true);
    // Trust runs one way: the author does not trust the viewer back.
    expect(await trusts(h.db, author.id, viewer.id)).toBe(false);
    // Adding again changes nothing.
    expect((await (await post({ op: "add", handle: "csm" })).json()).authors).toHaveLength(1);

    const removed = await post({ op: "remove", handle: "csm" });
    expect(removed.status).toBe(200);
    expect((await removed.json()).authors).toEqual([]);
    expect(await trusts(h.db, viewer.id, author.id)).toBe(false);
  });

  it("refuses what is not the person's own page, and bad bodies, writing nothing", async () => {
    const cases: [string, Response][] = [
      ["no session", await post({ op: "add", handle: "csm" }, { ...viewer, token: "nope" })],
      ["cross-site", await post({ op: "add", handle: "csm" }, viewer, { "sec-fetch-site": "cross-site" })],
      ["opaque origin (a dashboard frame)", await post({ op: "add", handle: "csm" }, viewer, { origin: "null", "sec-fetch-site": "cross-site" })],
      ["no CSRF token", await post({ op: "add", handle: "csm" }, viewer, { [CSRF_HEADER]: "" })],
      ["unknown handle", await post({ op: "add", handle: "nobody-here" })],
      ["own handle", await post({ op: "add", handle: "member" })],
      ["bad op", await post({ op: "grant", handle: "csm" })],
      ["slash in handle", await post({ op: "add", handle: "csm/../x" })],
      ["GET", await post(null, viewer, {}, "GET")],
    ];
    for (const [what, res] of cases) {
      expect(res.status, what).toBeGreaterThanOrEqual(400);
      expect(res.status, what).toBeLessThan(500);
      const body = await res.json();
      expect(typeof body.error, what).toBe("string");
    }
    expect(await trustedAuthors(h.db, viewer.id)).toEqual([]);
  });
});

describe("the manifest of a saved revision", () => {
  it("is read off the HTML once and kept", () => {
    const html = `<script>const API = window.DASHBOARD_API_BASE || "/api"; fetch(API + "/crm/users/contacts").then((r) => r.ok && r.json());</script>`;
    const savedReads = newSavedReads();
    const first = savedReads(1, "x", 1, html);
    expect(first).toEqual({ paths: ["/crm/users/contacts"], complete: true });
    // The same revision is never read again: a revision's HTML does not change.
    expect(savedReads(1, "x", 1, "<p>other</p>")).toBe(first);
  });

  it("is kept by each memo apart, as each app keeps its own", () => {
    const html = `<script>fetch(window.DASHBOARD_API_BASE + "/me");</script>`;
    newSavedReads()(1, "x", 1, html);
    expect(newSavedReads()(1, "x", 1, "<p>other</p>")).toEqual({ paths: [], complete: true });
  });
});

describe("the parameters a saved revision reads", () => {
  it("come from the same run of the check as its manifest, kept per revision", () => {
    const html = `<script>const params = window.DASHBOARD_PARAMS || {}; fetch(window.DASHBOARD_API_BASE + "/cx/districts?days=" + (params.days || 30));</script>`;
    const saved = newSavedAnalysis();
    expect(saved.params(1, "x", 1, html)).toEqual(["days"]);
    // The manifest was worked out in the same run: it is kept, not read off the other text.
    expect(saved.reads(1, "x", 1, "<p>other</p>")).toEqual({ paths: ["/cx/districts"], complete: true });
    expect(saved.params(1, "x", 1, "<p>DASHBOARD_PARAMS</p>")).toEqual(["days"]);
  });

  it("are none, without a run of the check, for a document that never names the global", () => {
    const saved = newSavedAnalysis();
    expect(saved.params(1, "y", 1, `<script>fetch(window.DASHBOARD_API_BASE + "/me");</script>`)).toEqual([]);
    // Nothing was kept for that revision: its manifest is worked out when first asked for.
    expect(saved.reads(1, "y", 1, "<p>other</p>")).toEqual({ paths: [], complete: true });
  });
});
