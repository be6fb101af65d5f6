import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { upsertUser, favouritesOf, homeOf } from "@/lib/auth/users";
import { startSession } from "@/lib/auth/session";
import { draftInput } from "@/lib/contract/playground";
import { createPlayground } from "@/lib/playground/service";
import { CSRF_HEADER, csrfTokenFor } from "@/lib/auth/csrf";
import type { HumanDeps } from "@/lib/saved/human";
import { savedRoutes, type SavedRoutes } from "@/lib/saved/routes";
import type { RouteModule } from "@/lib/http/edge";
import { listSpace, loadDashboard, revisionsOf, SAVED_HTML_MAX_BYTES } from "@/lib/saved/store";
import { savedDashboard } from "@/lib/reference/bodies";
import { backends, testSealer } from "../support/backends";

// Saving is a signed-in human's act at one of our own pages. Each refusal below is a way
// something else might try to save for them; every one must answer the envelope and write nothing.

const origin = "http://app.test";
const page = `<!doctype html><title>Pipeline &amp; renewals</title><h1>Pipeline</h1>`;

describe.each(backends)("saving into a space on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;
  let deps: HumanDeps;
  let routes: SavedRoutes;
  let csm: { id: number; token: string; csrf: string };
  let other: { id: number; token: string; csrf: string };

  async function person(email: string) {
    const id = await upsertUser(h.db, { email, name: email, groups: [] });
    const { token } = await startSession(h.db, id, 3_600_000);
    return { id, token, csrf: csrfTokenFor(testSealer, token) };
  }

  /** What the person's own page sends: cookie, same-origin fetch metadata, Origin and token. */
  function fromPage(who: { token: string; csrf: string }, extra: Record<string, string> = {}): Record<string, string> {
    return {
      cookie: `dd_session=${who.token}`,
      origin,
      "sec-fetch-site": "same-origin",
      [CSRF_HEADER]: who.csrf,
      ...extra,
    };
  }

  function save(path: string, headers: Record<string, string>, body: BodyInit | null = page, method = "POST") {
    const [, , handle = "", slug = ""] = path.split("/");
    const req = new Request(`${origin}${path}`, { method, headers: { "content-type": "text/html", host: "app.test", ...headers }, body });
    return routes.save[method as "POST"](req, { params: { handle, slug } });
  }

  beforeAll(async () => {
    h = await backend.open();
    deps = { db: h.db, sealer: testSealer };
    routes = savedRoutes(async () => deps);
    csm = await person("csm@demo.test");
    other = await person("member@demo.test");
  });
  afterAll(async () => {
    await h.close();
  });

  it("answers 201 on the first save and 200 after, keeping every revision", async () => {
    const first = await save("/~/csm/pipeline", fromPage(csm));
    expect(first.status).toBe(201);
    const a = await first.json();
    expect(savedDashboard.parse(a)).toEqual({ path: "/~/csm/pipeline", revision: 1, savedAt: a.savedAt });
    expect(Math.abs(a.savedAt - Date.now())).toBeLessThan(60_000);
    expect(first.headers.get("location")).toBe("/~/csm/pipeline");

    const second = await save("/~/csm/pipeline", fromPage(csm, { "x-save-note": "Restored from revision 1" }), page.replace("Pipeline</h1>", "Pipeline v2</h1>"));
    expect(second.status).toBe(200);
    expect((await second.json()).revision).toBe(2);

    const shown = await loadDashboard(h.db, "csm", "pipeline");
    expect(shown?.title).toBe("Pipeline & renewals");
    expect(shown?.shown.html).toContain("Pipeline v2");
    const old = await loadDashboard(h.db, "csm", "pipeline", 1);
    expect(old?.shown.html).toBe(page);
    const history = await revisionsOf(h.db, csm.id, "pipeline");
    expect(history.map((r) => [r.revision, r.note])).toEqual([
      [2, "Restored from revision 1"],
      [1, null],
    ]);
  });

  it("gives concurrent saves their own revisions", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => save("/~/csm/race", fromPage(csm), `<p>${i}</p>`)));
    const revisions = (await Promise.all(answers.map((r) => r.json()))).map((b) => b.revision).sort((x, y) => x - y);
    expect(revisions).toEqual([1, 2, 3, 4, 5, 6]);
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await revisionsOf(h.db, csm.id, "race")).toHaveLength(6);
  });

  it("lists a space newest first", async () => {
    await save("/~/csm/newest", fromPage(csm));
    const space = await listSpace(h.db, csm.id, "csm");
    expect(space[0]?.path).toBe("/~/csm/newest");
    expect(space.map((d) => d.slug)).toEqual(expect.arrayContaining(["pipeline", "race", "newest"]));
  });

  const refusals: Array<[string, () => Promise<Response>, number, string]> = [
    ["signed out", () => save("/~/csm/refused", { origin, "sec-fetch-site": "same-origin", [CSRF_HEADER]: "x" }), 401, "unauthorized"],
    [
      "a draft's write token as a bearer, no session",
      () => save("/~/csm/refused", { authorization: "Bearer draft-write-token", origin, "sec-fetch-site": "same-origin" }),
      401,
      "unauthorized",
    ],
    ["another person's space", () => save("/~/csm/refused", fromPage(other)), 403, "forbidden"],
    ["the cookie alone, as curl sends it", () => save("/~/csm/refused", { cookie: `dd_session=${csm.token}` }), 403, "forbidden"],
    [
      "the cookie and token but no browser fetch metadata",
      () => save("/~/csm/refused", { cookie: `dd_session=${csm.token}`, [CSRF_HEADER]: csm.csrf }),
      403,
      "forbidden",
    ],
    ["another site", () => save("/~/csm/refused", fromPage(csm, { origin: "https://evil.test", "sec-fetch-site": "cross-site" })), 403, "forbidden"],
    [
      "a sibling subdomain (same-site, not same-origin)",
      () => save("/~/csm/refused", fromPage(csm, { origin: "http://other.app.test", "sec-fetch-site": "same-site" })),
      403,
      "forbidden",
    ],
    [
      "the dashboard frame (opaque origin)",
      () => save("/~/csm/refused", fromPage(csm, { origin: "null", "sec-fetch-site": "cross-site" })),
      403,
      "forbidden",
    ],
    ["a form post with no CSRF token", () => save("/~/csm/refused", fromPage(csm, { [CSRF_HEADER]: "" })), 403, "forbidden"],
    ["a wrong CSRF token", () => save("/~/csm/refused", fromPage(csm, { [CSRF_HEADER]: other.csrf })), 403, "forbidden"],
    [
      "the write token in the body, as a form",
      () => save("/~/csm/refused", fromPage(csm, { "content-type": "application/x-www-form-urlencoded", [CSRF_HEADER]: "" }), "token=abc&html=x"),
      403,
      "forbidden",
    ],
    ["a form body with the right token", () => save("/~/csm/refused", fromPage(csm, { "content-type": "application/x-www-form-urlencoded" }), "html=x"), 415, "unsupported_media_type"],
    ["JSON instead of HTML", () => save("/~/csm/refused", fromPage(csm, { "content-type": "application/json" }), '{"html":"x"}'), 415, "unsupported_media_type"],
    ["a body over 2 MiB", () => save("/~/csm/refused", fromPage(csm), "x".repeat(SAVED_HTML_MAX_BYTES + 1)), 413, "payload_too_large"],
    ["an empty body", () => save("/~/csm/refused", fromPage(csm), "  "), 400, "empty_dashboard"],
    [
      "a dashboard that uses WebRTC",
      () => save("/~/csm/refused", fromPage(csm), '<!doctype html><p>x</p><script>const PC = window["RTCPeerConnection"]; new PC();</script>'),
      400,
      "dashboard_uses_webrtc",
    ],
    ["a slug that is not one", () => save("/~/csm/Not_A_Slug", fromPage(csm)), 400, "invalid_slug"],
    // The router has decoded %25E0 once, to %E0; it is a slug that is not one, not a second decoding.
    ["a slug that decodes to a stray percent escape", () => save("/~/csm/%E0", fromPage(csm)), 400, "invalid_slug"],
    ["DELETE", () => save("/~/csm/pipeline", fromPage(csm), null, "DELETE"), 405, "method_not_allowed"],
  ];

  it.each(refusals)("refuses %s and writes nothing", async (_name, send, status, error) => {
    const before = await listSpace(h.db, csm.id, "csm");
    const res = await send();
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toBe(error);
    expect(typeof body.hint).toBe("string");
    expect(await listSpace(h.db, csm.id, "csm")).toEqual(before);
    expect(await loadDashboard(h.db, "csm", "refused")).toBeNull();
    expect((await loadDashboard(h.db, "csm", "pipeline"))?.revision).toBe(2);
  });

  it("says where a dashboard uses WebRTC, and why it cannot be saved", async () => {
    const res = await save("/~/csm/refused", fromPage(csm), "<!doctype html>\n<script>\nconst pc = new RTCPeerConnection();\n</script>");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error).toBe("dashboard_uses_webrtc");
    expect(body.hint).toMatch(/^Line 3, column 16: .*RTCPeerConnection.*removes.*carry data out/);
    expect(await loadDashboard(h.db, "csm", "refused")).toBeNull();
  });

  it("refuses a dashboard holding NUL, as a draft is refused, on either engine (PostgreSQL cannot store it)", async () => {
    const res = await save("/~/csm/nul-body", fromPage(csm), "<!doctype html><title>N</title><p>a\u0000b</p>");
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "invalid_dashboard", hint: expect.stringMatching(/^The dashboard contains NUL/) });
    expect(await loadDashboard(h.db, "csm", "nul-body")).toBeNull();
  });

  it("is not authorised by a playground draft's write token", async () => {
    const playground = createPlayground(h, { log: () => {} });
    const { postUrl } = await playground.create(draftInput.parse({ html: page }), origin);
    await playground.close();
    const token = postUrl.split("/").pop()!;
    const attempts: Record<string, string>[] = [{ authorization: `Bearer ${token}` }, { [CSRF_HEADER]: token, origin, "sec-fetch-site": "same-origin" }];
    for (const headers of attempts) {
      const res = await save("/~/csm/via-draft", { cookie: `dd_session=${csm.token}`, ...headers });
      expect(res.status).toBe(403);
    }
    expect(await loadDashboard(h.db, "csm", "via-draft")).toBeNull();
  });

  describe("favourites and home", () => {
    function action(route: RouteModule, path: string, body: unknown, headers = fromPage(csm)) {
      return route.POST(
        new Request(`${origin}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", host: "app.test", ...headers },
          body: JSON.stringify(body),
        }),
      );
    }

    it("stars, reorders and unstars, in render order", async () => {
      for (const [href, label] of [
        ["/~/csm/pipeline", "Pipeline"],
        ["/~/csm/race", "Race"],
        ["/~/csm/newest", "Newest"],
      ]) {
        expect((await action(routes.favourites, "/account/favourites", { op: "add", href, label })).status).toBe(200);
      }
      const moved = await action(routes.favourites, "/account/favourites", { op: "order", hrefs: ["/~/csm/newest", "/~/csm/pipeline", "/~/csm/race"] });
      expect((await moved.json()).favourites.map((f: { href: string }) => f.href)).toEqual(["/~/csm/newest", "/~/csm/pipeline", "/~/csm/race"]);
      expect((await favouritesOf(h.db, csm.id)).map((f) => f.label)).toEqual(["Newest", "Pipeline", "Race"]);

      await action(routes.favourites, "/account/favourites", { op: "remove", href: "/~/csm/pipeline" });
      expect((await favouritesOf(h.db, csm.id)).map((f) => f.href)).toEqual(["/~/csm/newest", "/~/csm/race"]);
      // Starring again keeps one entry and takes the new label.
      await action(routes.favourites, "/account/favourites", { op: "add", href: "/~/csm/race", label: "Race (renamed)" });
      expect(await favouritesOf(h.db, csm.id)).toEqual([
        { href: "/~/csm/newest", label: "Newest" },
        { href: "/~/csm/race", label: "Race (renamed)" },
      ]);
    });

    it("refuses an order that is not a permutation, an off-site href, and requests not from the person's page", async () => {
      const before = await favouritesOf(h.db, csm.id);
      const cases: Array<[unknown, Record<string, string>, number]> = [
        [{ op: "order", hrefs: ["/~/csm/race"] }, fromPage(csm), 400],
        [{ op: "add", href: "https://evil.test/x", label: "x" }, fromPage(csm), 400],
        [{ op: "add", href: "//evil.test/x", label: "x" }, fromPage(csm), 400],
        [{ op: "explode" }, fromPage(csm), 400],
        [{ op: "add", href: "/~/csm/x", label: "x" }, { cookie: `dd_session=${csm.token}` }, 403],
        [{ op: "add", href: "/~/csm/x", label: "x" }, fromPage(csm, { [CSRF_HEADER]: "wrong" }), 403],
      ];
      for (const [body, headers, status] of cases) {
        const res = await action(routes.favourites, "/account/favourites", body, headers);
        expect(res.status, JSON.stringify(body)).toBe(status);
        expect(await res.json()).toHaveProperty("error");
      }
      expect(await favouritesOf(h.db, csm.id)).toEqual(before);
    });

    it("reads account bodies as strict UTF-8 in a UTF-8 charset, as drafts are read", async () => {
      const before = await favouritesOf(h.db, csm.id);
      const raw = (body: BodyInit, type: string) =>
        routes.favourites.POST(
          new Request(`${origin}/account/favourites`, { method: "POST", headers: { ...fromPage(csm), host: "app.test", "content-type": type }, body }),
        );
      // "Caf\xe9" in Latin-1: not UTF-8, so never stored with a replacement character.
      const latin1 = new Uint8Array([...new TextEncoder().encode('{"op":"add","href":"/~/csm/cafe","label":"Caf'), 0xe9, ...new TextEncoder().encode('"}')]);
      const notUtf8 = await raw(latin1, "application/json");
      expect(notUtf8.status).toBe(400);
      expect(await notUtf8.json()).toEqual({ error: "invalid_request", hint: "The body is not valid UTF-8." });
      const declared = await raw(JSON.stringify({ op: "add", href: "/~/csm/cafe", label: "Cafe" }), "application/json; charset=iso-8859-1");
      expect(declared.status).toBe(415);
      expect((await declared.json()).error).toBe("unsupported_media_type");
      expect(await favouritesOf(h.db, csm.id)).toEqual(before);
    });

    it("sets and clears home, and refuses a home outside the spaces", async () => {
      const set = await action(routes.home, "/account/home", { path: "/~/csm/pipeline" });
      expect(await set.json()).toEqual({ path: "/~/csm/pipeline" });
      expect(await homeOf(h.db, csm.id)).toBe("/~/csm/pipeline");
      for (const path of ["/", "https://evil.test/", "/connections"]) {
        expect((await action(routes.home, "/account/home", { path })).status).toBe(400);
      }
      expect(await homeOf(h.db, csm.id)).toBe("/~/csm/pipeline");
      expect((await action(routes.home, "/account/home", { path: null }, { cookie: `dd_session=${csm.token}` })).status).toBe(403);
      expect(await homeOf(h.db, csm.id)).toBe("/~/csm/pipeline");
      const cleared = await action(routes.home, "/account/home", { path: null });
      expect(await cleared.json()).toEqual({ path: null });
      expect(await homeOf(h.db, csm.id)).toBeNull();
    });
  });
});
