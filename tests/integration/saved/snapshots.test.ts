import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { upsertUser } from "@/lib/auth/users";
import { startSession, type SessionUser } from "@/lib/auth/session";
import { CSRF_HEADER, csrfTokenFor } from "@/lib/auth/csrf";
import type { DraftReads } from "@/lib/check/reads";
import type { RenderViewport } from "@/lib/contract/renders";
import type { HumanDeps } from "@/lib/saved/human";
import { ApiError } from "@/lib/contract/errors";
import type { Drawings } from "@/lib/saved/drawings";
import type { DrawnPictures } from "@/lib/saved/pictures";
import { snapshotRoutes, type SnapshotRoutes } from "@/lib/saved/snapshot-routes";
import { SNAPSHOTS_MAX, snapshotsOf } from "@/lib/saved/snapshots";
import { saveDashboard } from "@/lib/saved/store";
import { newSavedReads } from "@/lib/saved/trust";
import { backends, testSealer } from "../support/backends";

// Snapshots over their routes, on both engines: made only by the signed-in person at this site's
// own pages and only of their own dashboards; private until shared; gone (410) once expired or
// revoked, with what they showed deleted; and unknown (404) to whoever may not open them. The
// drawing and its picture are the safe view's (e2e/snapshots.spec.ts and the token holder's test
// freeze real ones); here stand-ins for them record whom they drew for.

const origin = "http://app.test";
const DAY = 86_400_000;
const dashboardHtml = `<!doctype html><title>CX book</title><h1>Book</h1><script>fetch(window.DASHBOARD_API_BASE + "/me").then(r => r.json()).then(me => document.body.append(me.email))</script>`;

interface Person {
  id: number;
  user: SessionUser;
  token: string;
  csrf: string;
}

describe.each(backends)("snapshots on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let routes: SnapshotRoutes;
  let csm: Person;
  let other: Person;
  let clock = Date.now();
  const draws: { viewer: SessionUser; dashboard: Parameters<Drawings["draw"]>[1]; reads: DraftReads; viewport: RenderViewport }[] = [];

  const drawings: Drawings = {
    async draw(viewer, dashboard, reads, viewport) {
      draws.push({ viewer, dashboard, reads, viewport });
      const html = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>${viewer.email}'s ${dashboard.title} r${dashboard.revision} &amp; "quotes"</p></body></html>`;
      return { html, drawnAt: new Date(clock - 1_000).toISOString(), height: 480, revision: dashboard.revision, viewport, remembered: false, answers: [{ path: "/me", status: 200 }] };
    },
    pageOf: () => null,
    read: async () => new Response(null, { status: 404 }),
  };
  // A 1×1 PNG, and a switch for a renderer with no slot free for the picture.
  const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==", "base64");
  let picturesBusy = false;
  const pictured: string[] = [];
  const pictures: DrawnPictures = {
    async of(_viewerId, _dashboard, drawing) {
      if (picturesBusy) throw new ApiError("renderer_busy", "Every drawing slot is taken; retry in 5 s.", { "retry-after": "5" });
      pictured.push(drawing.html);
      return PNG;
    },
  };

  async function person(email: string): Promise<Person> {
    const id = await upsertUser(h.db, { email, name: email.split("@")[0]!.toUpperCase(), groups: [] });
    const { token } = await startSession(h.db, id, 3_600_000);
    const user = (await h.db.selectFrom("users").select(["id", "email", "name", "handle"]).where("id", "=", id).executeTakeFirstOrThrow()) as unknown as SessionUser;
    return { id, user: { ...user, id: Number(user.id) }, token, csrf: csrfTokenFor(testSealer, token) };
  }

  /** What the person's own page sends: cookie, same-origin fetch metadata, Origin and token. */
  const fromPage = (who: Person, extra: Record<string, string> = {}): Record<string, string> => ({
    cookie: `dd_session=${who.token}`,
    origin,
    "sec-fetch-site": "same-origin",
    [CSRF_HEADER]: who.csrf,
    ...extra,
  });

  /** A page's form post carries its token in a field, not the header. */
  const formPage = (who: Person, extra: Record<string, string> = {}) => {
    const { [CSRF_HEADER]: _header, ...rest } = fromPage(who, extra);
    return rest;
  };

  function act(body: unknown, headers: Record<string, string>): Promise<Response> {
    return routes.account.POST(
      new Request(`${origin}/account/snapshots`, { method: "POST", headers: { "content-type": "application/json", host: "app.test", ...headers }, body: JSON.stringify(body) }),
    );
  }
  function form(fields: Record<string, string>, headers: Record<string, string>): Promise<Response> {
    const body = new URLSearchParams(fields).toString();
    return routes.account.POST(
      new Request(`${origin}/account/snapshots`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)), host: "app.test", ...headers },
        body,
      }),
    );
  }
  function picture(id: string, who: Person | null): Promise<Response> {
    return routes.picture.GET(new Request(`${origin}/snapshots/${id}/picture.png`, { headers: who ? { cookie: `dd_session=${who.token}` } : {} }), { params: { token: id } });
  }
  function open(id: string, who: Person | null, accept = "application/json"): Promise<Response> {
    return routes.show.GET(new Request(`${origin}/snapshots/${id}`, { headers: { accept, ...(who ? { cookie: `dd_session=${who.token}` } : {}) } }), { params: { token: id } });
  }
  async function freeze(extra: Record<string, unknown> = {}): Promise<{ id: string; path: string; visibility: string; expiresAt: string }> {
    const res = await act({ op: "create", path: "/~/csm/my-book", ...extra }, fromPage(csm));
    expect(res.status, await res.clone().text()).toBe(201);
    return ((await res.json()) as { snapshot: { id: string; path: string; visibility: string; expiresAt: string } }).snapshot;
  }
  const rows = async () => (await h.db.selectFrom("snapshots").selectAll().orderBy("id").execute()).map((r) => ({ ...r, png: r.png ? Buffer.from(r.png).toString("base64") : null }));

  beforeAll(async () => {
    h = await backend.open();
    const deps: HumanDeps = { db: h.db, sealer: testSealer };
    routes = snapshotRoutes({ human: async () => deps, db: async () => h.db, sealer: () => testSealer, drawings, pictures, savedReads: newSavedReads(), trustedProxy: [], now: () => clock });
    csm = await person("csm@demo.test");
    other = await person("member@demo.test");
    await saveDashboard(h.db, { ownerId: csm.id, handle: "csm", slug: "my-book", html: dashboardHtml });
    await saveDashboard(h.db, { ownerId: csm.id, handle: "csm", slug: "my-book", html: dashboardHtml.replace("Book</h1>", "Book v2</h1>") });
    await saveDashboard(h.db, { ownerId: other.id, handle: "member", slug: "theirs", html: dashboardHtml });
  });
  beforeEach(() => {
    clock = Date.now();
    draws.length = 0;
    pictured.length = 0;
    picturesBusy = false;
  });
  afterAll(async () => {
    await h.close();
  });

  it("freezes the person's own dashboard, drawn as them on what its code reads: private, for 7 days, at an unguessable address", async () => {
    const res = await act({ op: "create", path: "/~/csm/my-book" }, fromPage(csm));
    expect(res.status).toBe(201);
    const { snapshot } = await res.json();
    expect(snapshot).toMatchObject({ dashboard: "/~/csm/my-book", title: "CX book", revision: 2, viewport: "desktop", visibility: "private", picture: true });
    expect(snapshot.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(snapshot.path).toBe(`/snapshots/${snapshot.id}`);
    expect(res.headers.get("location")).toBe(snapshot.path);
    expect(Date.parse(snapshot.expiresAt) - clock).toBe(7 * DAY);
    expect(draws).toHaveLength(1);
    expect(draws[0]!.viewer.id).toBe(csm.id);
    expect(draws[0]!.dashboard).toMatchObject({ ownerId: csm.id, slug: "my-book", revision: 2 });
    // The grant covers what the code names, and nothing else.
    expect(draws[0]!.reads.paths).toEqual(["/me"]);

    const stored = await h.db.selectFrom("snapshots").selectAll().where("id", "=", snapshot.id).executeTakeFirstOrThrow();
    expect(stored.html).toContain("csm@demo.test's CX book r2");
    expect(Number(stored.owner_id)).toBe(csm.id);

    const other16 = await freeze({ revision: 1, viewport: "phone", visibility: "link", expiresInDays: 90 });
    expect(other16).toMatchObject({ visibility: "link" });
    expect(Date.parse(other16.expiresAt) - clock).toBe(90 * DAY);
    expect(draws[1]).toMatchObject({ viewport: "phone", dashboard: { revision: 1 } });
    expect(other16.id).not.toBe(snapshot.id);
  });

  it("answers a form from a page without script with a redirect to the new snapshot", async () => {
    const res = await form({ csrf: csm.csrf, op: "create", path: "/~/csm/my-book", visibility: "signed_in", expiresInDays: "3" }, formPage(csm));
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/snapshots\/[A-Za-z0-9_-]{32}$/);
    const opened = await (await open(location.split("/").pop()!, other)).json();
    expect(opened.snapshot).toMatchObject({ visibility: "signed_in", title: "CX book" });
    expect(Date.parse(opened.snapshot.expiresAt) - clock).toBe(3 * DAY);
  });

  const bad: Array<[string, Record<string, unknown>, number, string, RegExp]> = [
    ["an expiry of 0 days", { expiresInDays: 0 }, 400, "invalid_request", /expiresInDays/],
    ["an expiry past 90 days", { expiresInDays: 91 }, 400, "invalid_request", /expiresInDays/],
    ["an expiry that is not a whole number of days", { expiresInDays: 7.5 }, 400, "invalid_request", /expiresInDays/],
    ["an expiry given as text", { expiresInDays: "7" }, 400, "invalid_request", /expiresInDays/],
    ["an unknown visibility", { visibility: "public" }, 400, "invalid_request", /visibility/],
    ["an unknown viewport", { viewport: "watch" }, 400, "invalid_request", /viewport/],
    ["a path that is not a saved dashboard's", { path: "/account" }, 400, "invalid_request", /path/],
    ["someone else's dashboard", { path: "/~/member/theirs" }, 403, "forbidden", /only your own dashboards/],
    ["a dashboard that does not exist", { path: "/~/csm/nothing-here" }, 404, "not_found", /no saved dashboard/],
    ["a revision that does not exist", { revision: 9 }, 404, "not_found", /no saved dashboard or revision/],
  ];
  it.each(bad)("refuses %s with the envelope, drawing and storing nothing", async (_name, extra, status, error, hint) => {
    const before = await rows();
    const res = await act({ op: "create", path: "/~/csm/my-book", ...extra }, fromPage(csm));
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toBe(error);
    expect(body.hint).toMatch(hint);
    expect(draws).toHaveLength(0);
    expect(await rows()).toEqual(before);
  });

  const refusals: Array<[string, () => Record<string, string>, number]> = [
    ["signed out", () => ({ origin, "sec-fetch-site": "same-origin", [CSRF_HEADER]: csm.csrf }), 401],
    ["a bearer token and no session", () => ({ authorization: `Bearer ${csm.token}`, origin, "sec-fetch-site": "same-origin", [CSRF_HEADER]: csm.csrf }), 401],
    ["the cookie alone, as a script or tool sends it", () => ({ cookie: `dd_session=${csm.token}` }), 403],
    ["the cookie and token with no browser fetch metadata", () => ({ cookie: `dd_session=${csm.token}`, [CSRF_HEADER]: csm.csrf }), 403],
    ["another site's page", () => fromPage(csm, { origin: "https://evil.test", "sec-fetch-site": "cross-site" }), 403],
    ["a sibling subdomain", () => fromPage(csm, { origin: "http://other.app.test", "sec-fetch-site": "same-site" }), 403],
    ["a dashboard's frame (opaque origin)", () => fromPage(csm, { origin: "null", "sec-fetch-site": "cross-site" }), 403],
    ["no CSRF token", () => fromPage(csm, { [CSRF_HEADER]: "" }), 403],
    ["someone else's CSRF token", () => fromPage(csm, { [CSRF_HEADER]: other.csrf }), 403],
  ];
  it.each(refusals)("refuses to freeze, share or revoke from %s, and changes nothing", async (_name, headers, status) => {
    const mine = await freeze({ visibility: "private" });
    const before = await rows();
    draws.length = 0;
    for (const body of [{ op: "create", path: "/~/csm/my-book" }, { op: "share", id: mine.id, visibility: "link" }, { op: "revoke", id: mine.id }]) {
      const res = await act(body, headers());
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((await res.json()).error).toBe(status === 401 ? "unauthorized" : "forbidden");
    }
    expect(draws).toHaveLength(0);
    expect(await rows()).toEqual(before);
  });

  it("refuses a cross-site form post, even one carrying the right token in its fields", async () => {
    const mine = await freeze({ visibility: "private" });
    const before = await rows();
    draws.length = 0;
    const crossSite = formPage(csm, { origin: "https://evil.test", "sec-fetch-site": "cross-site" });
    const attempts: Record<string, string>[] = [{ op: "create", path: "/~/csm/my-book" }, { op: "share", id: mine.id, visibility: "link" }, { op: "revoke", id: mine.id }];
    for (const fields of attempts) {
      const res = await form({ csrf: csm.csrf, ...fields }, crossSite);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe("forbidden");
    }
    expect(draws).toHaveLength(0);
    expect(await rows()).toEqual(before);
  });

  it("keeps a private snapshot from everyone but its owner, and shares it as asked", async () => {
    const s = await freeze();
    expect((await open(s.id, csm)).status).toBe(200);
    for (const who of [other, null]) {
      const res = await open(s.id, who);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "not_found", hint: "There is no snapshot at this address that you may open." });
    }
    // A made-up token answers exactly the same.
    const madeUp = await open("A".repeat(32), other);
    expect(madeUp.status).toBe(404);
    expect(await madeUp.json()).toEqual({ error: "not_found", hint: "There is no snapshot at this address that you may open." });

    expect((await act({ op: "share", id: s.id, visibility: "signed_in" }, fromPage(csm))).status).toBe(200);
    expect((await open(s.id, other)).status).toBe(200);
    expect((await open(s.id, null)).status).toBe(404);

    const shared = await act({ op: "share", id: s.id, visibility: "link" }, fromPage(csm));
    expect((await shared.json()).snapshot).toMatchObject({ id: s.id, visibility: "link" });
    const anyone = await open(s.id, null);
    expect(anyone.status).toBe(200);
    const { snapshot } = await anyone.json();
    expect(snapshot).toMatchObject({ id: s.id, owner: { handle: "csm", name: "CSM" }, height: 480 });
    expect(snapshot.html).toContain("csm@demo.test's CX book r2");
    expect(snapshot.owner).not.toHaveProperty("id");
    // Opening it draws nothing: it never reads anyone's data again.
    expect(draws).toHaveLength(1);

    // Only the owner changes who may open it; to anyone else it does not exist.
    const theirs = await act({ op: "share", id: s.id, visibility: "private" }, fromPage(other));
    expect(theirs.status).toBe(404);
    expect((await open(s.id, null)).status).toBe(200);
  });

  it("shows a browser the stored drawing in a frame with no script permission, on a page with no script, under the inert policy", async () => {
    const s = await freeze({ visibility: "link" });
    for (const who of [csm, other, null]) {
      const res = await open(s.id, who, "text/html,application/xhtml+xml,*/*;q=0.8");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("img-src data:");
      expect(csp).not.toMatch(/script-src/);
      const page = await res.text();
      expect(page).not.toMatch(/<script/i);
      const frames = [...page.matchAll(/<iframe\b[^>]*>/g)].map((m) => m[0]);
      expect(frames).toHaveLength(1);
      expect(frames[0]).toMatch(/ sandbox="" /);
      // The stored document, escaped once into the frame's srcdoc.
      expect(frames[0]).toContain("srcdoc=\"&#60;!doctype html&#62;");
      expect(frames[0]).toContain("csm@demo.test&#39;s CX book r2 &#38;amp; &#34;quotes&#34;");
      expect(page).toMatch(/this site drew it on (your|CSM’s) data on <time datetime="[^"]+">/);
      expect(page).toContain("expires on <time");
      // The owner's controls, and the CSRF token with them, are on the owner's page alone.
      expect(page.includes('data-testid="snapshot-owner"'), who?.user.handle ?? "signed out").toBe(who === csm);
      expect(page.includes(csm.csrf)).toBe(who === csm);
    }
  });

  it("answers 410 once expired, deletes what it showed, and still 404 to whoever could not open it", async () => {
    const priv = await freeze({ expiresInDays: 1 });
    const linked = await freeze({ expiresInDays: 2, visibility: "link" });
    clock += DAY - 1;
    expect((await open(priv.id, csm)).status).toBe(200);
    clock += 1;
    const gone = await open(priv.id, csm);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ error: "snapshot_gone", hint: expect.stringMatching(/expired.*deleted/) });
    const page = await open(priv.id, csm, "text/html");
    expect(page.status).toBe(410);
    expect(await page.text()).toMatch(/This snapshot is gone.*It expired on/s);
    expect((await open(priv.id, other)).status).toBe(404);
    const stored = await h.db.selectFrom("snapshots").select(["html", "png"]).where("id", "=", priv.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ html: "", png: null });
    // Not listed, and not shared any more.
    expect((await snapshotsOf(h.db, csm.id, clock)).map((s) => s.id)).not.toContain(priv.id);
    const share = await act({ op: "share", id: priv.id, visibility: "link" }, fromPage(csm));
    expect(share.status).toBe(410);
    expect((await share.json()).error).toBe("snapshot_gone");
    expect((await open(linked.id, null)).status).toBe(200);
  });

  it("revokes on the owner's word alone: its address then answers 410, and what it showed is deleted", async () => {
    const s = await freeze({ visibility: "link" });
    const listed = (await snapshotsOf(h.db, csm.id, clock)).map((x) => x.id);
    expect(listed[0]).toBe(s.id);

    const before = await rows();
    const notTheirs = await act({ op: "revoke", id: s.id }, fromPage(other));
    expect(notTheirs.status).toBe(404);
    expect(await rows()).toEqual(before);

    const revoked = await act({ op: "revoke", id: s.id }, fromPage(csm));
    expect(revoked.status).toBe(200);
    const { snapshots } = await revoked.json();
    expect(snapshots.map((x: { id: string }) => x.id)).toEqual(listed.slice(1));
    for (const who of [csm, other, null]) {
      const res = await open(s.id, who);
      expect(res.status).toBe(410);
      expect(await res.json()).toEqual({ error: "snapshot_gone", hint: "Its owner revoked this snapshot; what it showed is deleted." });
    }
    const page = await open(s.id, null, "text/html");
    expect(page.status).toBe(410);
    const text = await page.text();
    expect(text).toContain("Its owner revoked it, and what it showed has been deleted.");
    expect(text).not.toContain("CX book");
    expect(await h.db.selectFrom("snapshots").select(["html", "png"]).where("id", "=", s.id).executeTakeFirstOrThrow()).toEqual({ html: "", png: null });
    // Revoking it again is the outcome asked for; sharing it again is not possible.
    expect((await act({ op: "revoke", id: s.id }, fromPage(csm))).status).toBe(200);
    expect((await act({ op: "share", id: s.id, visibility: "link" }, fromPage(csm))).status).toBe(410);
  });

  it("revokes from a form on the snapshot's page and sends the browser back there", async () => {
    const s = await freeze();
    const res = await form({ csrf: csm.csrf, op: "revoke", id: s.id, next: s.path }, formPage(csm));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(s.path);
    expect((await open(s.id, csm, "text/html")).status).toBe(410);
    const fromAccount = await freeze();
    const back = await form({ csrf: csm.csrf, op: "revoke", id: fromAccount.id }, formPage(csm));
    expect(back.headers.get("location")).toBe("/account#snapshots");
  });

  it("keeps the drawing's picture, to the same people on the same terms as the snapshot", async () => {
    const s = await freeze();
    // The picture is of the very document stored.
    const stored = await h.db.selectFrom("snapshots").select(["html", "png"]).where("id", "=", s.id).executeTakeFirstOrThrow();
    expect(pictured).toEqual([stored.html]);
    expect(Buffer.from(stored.png!)).toEqual(PNG);

    const mine = await picture(s.id, csm);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("content-type")).toBe("image/png");
    expect(mine.headers.get("content-disposition")).toBe('attachment; filename="csm-my-book-r2-desktop-snapshot.png"');
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    expect(mine.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(Buffer.from(await mine.arrayBuffer())).toEqual(PNG);
    const page = await (await open(s.id, csm, "text/html")).text();
    expect(page).toContain(`<a href="/snapshots/${s.id}/picture.png" download data-testid="snapshot-picture">Download picture</a>`);

    for (const who of [other, null]) expect((await picture(s.id, who)).status).toBe(404);
    await act({ op: "share", id: s.id, visibility: "link" }, fromPage(csm));
    expect((await picture(s.id, null)).status).toBe(200);

    await act({ op: "revoke", id: s.id }, fromPage(csm));
    const gone = await picture(s.id, null);
    expect(gone.status).toBe(410);
    expect((await gone.json()).error).toBe("snapshot_gone");
    expect((await h.db.selectFrom("snapshots").select("png").where("id", "=", s.id).executeTakeFirstOrThrow()).png).toBeNull();
  });

  it("keeps the snapshot without a picture when none can be made now, and says so by offering none", async () => {
    picturesBusy = true;
    const s = await freeze();
    expect(s).toMatchObject({ picture: false });
    expect((await h.db.selectFrom("snapshots").select("png").where("id", "=", s.id).executeTakeFirstOrThrow()).png).toBeNull();
    const res = await picture(s.id, csm);
    expect(res.status).toBe(404);
    expect((await res.json()).hint).toMatch(/without a picture/);
    const page = await open(s.id, csm, "text/html");
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain("Download picture");
  });

  it(`holds at most ${SNAPSHOTS_MAX} open snapshots a person, and counts only open ones`, async () => {
    const open = (await snapshotsOf(h.db, csm.id, clock)).length;
    for (let i = open; i < SNAPSHOTS_MAX; i++) await freeze();
    const before = await rows();
    const over = await act({ op: "create", path: "/~/csm/my-book" }, fromPage(csm));
    expect(over.status).toBe(400);
    expect((await over.json()).hint).toMatch(/100 snapshots open.*revoke one/);
    expect(await rows()).toEqual(before);
    const [first] = await snapshotsOf(h.db, csm.id, clock);
    await act({ op: "revoke", id: first!.id }, fromPage(csm));
    await freeze();
  }, 60_000);
});
