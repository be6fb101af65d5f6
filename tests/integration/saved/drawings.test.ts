import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSession, type SessionUser } from "@/lib/auth/session";
import { upsertUser } from "@/lib/auth/users";
import { loadUser } from "@/lib/auth/session";
import { ApiError } from "@/lib/contract/errors";
import { drawableRevision } from "@/lib/drafts/drafts";
import { draftDrawingRoute } from "@/lib/playground/drawn";
import { draftInput, draftUpdate } from "@/lib/contract/playground";
import { createPlayground, type Playground } from "@/lib/playground/service";
import { createDrawings, type Drawings } from "@/lib/saved/drawings";
import type { Renderer } from "@/lib/renderer";
import { backends } from "../support/backends";

// The safe view of live drafts (lib/saved/drawings.ts, lib/playground/drawn.ts) on real storage:
// a drawing is remembered per viewer, draft, revision and viewport, served again while the
// viewer's answers are the same and drawn again when they or the revision change; one viewer has
// one drawing of one draft under way at a time; and the route draws only live drafts, only for
// someone signed in. The service's browser is stood in for by a renderer that does what the
// render page does: reads through the drawing's own reads, then hands back what it drew.

const origin = "http://app.test";
const sqlite = backends.find((b) => b.name === "sqlite")!;

const reading = (label: string) => `<!doctype html><title>${label}</title><p id="label">${label}</p>
<script>const API = window.DASHBOARD_API_BASE || "/api"; fetch(API + "/me");</script>`;

describe("drawings of live drafts", () => {
  let h: Awaited<ReturnType<typeof sqlite.open>>;
  let playground: Playground;
  let drawings: Drawings;
  let viewer: SessionUser;
  let other: SessionUser;
  let viewerToken: string;
  /** The API's answer to /me, per user id: changed by a test to change the viewer's answers. */
  const answers = new Map<number, string>();
  const apiReads: { path: string; user: number }[] = [];
  const renders: { path: string; viewport: number; read: string; html: string | undefined }[] = [];
  /** While set, a render waits for it: a drawing under way. */
  let hold: Promise<void> | null = null;

  const renderer = {
    async render(page: { path: string; viewport: { width: number } }) {
      const token = page.path.split("/").pop()!;
      const shown = drawings.pageOf(token);
      const res = await drawings.read(new Request(`${origin}/dashboards/drawn/${token}/api/me`), token, "/api/me");
      const read = await res.text();
      renders.push({ path: page.path, viewport: page.viewport.width, read, html: shown?.html });
      if (hold) await hold;
      const label = /<p id="label">([^<]*)<\/p>/.exec(shown?.html ?? "")?.[1] ?? "";
      return {
        result: { height: 120 },
        frameResult: { html: `<html><body><p id="label">${label}</p><p id="got">${read}</p></body></html>`, css: [], width: page.viewport.width, height: 120, title: "", lang: "en", dir: "", truncated: false },
        png: Buffer.alloc(0),
        width: page.viewport.width,
        height: 120,
        ms: 1,
      };
    },
  } as unknown as Renderer;

  async function person(email: string): Promise<{ user: SessionUser; token: string }> {
    const id = await upsertUser(h.db, { email, name: email, groups: [] });
    const { token } = await startSession(h.db, id, 3_600_000);
    return { user: (await loadUser(h.db, id))!, token };
  }

  async function createDraft(html: string, dataMode: "live" | "demo" = "live"): Promise<{ id: string; postUrl: string }> {
    return playground.create(draftInput.parse({ html, dataMode }), origin);
  }

  async function updateDraft(draft: { postUrl: string }, html: string): Promise<void> {
    await playground.update(new URL(draft.postUrl).pathname.split("/").pop()!, draftUpdate.parse({ html }), origin);
  }

  /** The draft's current revision drawn for `who`, as the route asks for it. */
  async function drawDraft(who: SessionUser, id: string, viewport: "desktop" | "phone" = "desktop", revision: number | null = null) {
    const d = await drawableRevision(playground.context, id, revision);
    return drawings.draw(who, { draftId: id, revision: d.revision, title: "Draft", html: d.html }, d.reads, viewport, "198.18.0.1");
  }

  beforeAll(async () => {
    h = await sqlite.open();
    playground = createPlayground(h, { log: () => {}, publicOrigin: origin });
    drawings = createDrawings({
      renderer: () => renderer,
      readApi: async (user, path) => {
        apiReads.push({ path, user: user.id });
        return { status: 200, body: { email: answers.get(user.id) ?? user.email } };
      },
      origin: () => "http://127.0.0.1:1",
    });
    const a = await person("admin@demo.test");
    viewer = a.user;
    viewerToken = a.token;
    other = (await person("member@demo.test")).user;
  });
  afterAll(async () => {
    await playground.close();
    await h.close();
  });
  beforeEach(() => {
    apiReads.length = 0;
    renders.length = 0;
    answers.clear();
    hold = null;
  });

  it("draws a revision once, on the viewer's own answers, and serves it again while they are the same", async () => {
    const draft = await createDraft(reading("one"));
    const first = await drawDraft(viewer, draft.id);
    expect(first).toMatchObject({ revision: 1, viewport: "desktop", remembered: false, height: 120 });
    expect(first.html).toContain("admin@demo.test");
    expect(first.html).not.toMatch(/<script/i);
    expect(renders).toHaveLength(1);
    // The render page was the draft's own revision, and its read went to the viewer's API.
    expect(renders[0]!.html).toContain(`<p id="label">one</p>`);
    expect(apiReads).toEqual([{ path: "/me", user: viewer.id }]);

    apiReads.length = 0;
    const again = await drawDraft(viewer, draft.id);
    expect(again).toMatchObject({ revision: 1, remembered: true, html: first.html, drawnAt: first.drawnAt });
    expect(renders).toHaveLength(1);
    // Revalidated by making the recorded read again, as the viewer.
    expect(apiReads).toEqual([{ path: "/me", user: viewer.id }]);
  });

  it("draws again when the viewer's answers change, when the revision changes, and for another viewer or viewport", async () => {
    const draft = await createDraft(reading("one"));
    await drawDraft(viewer, draft.id);
    expect(renders).toHaveLength(1);

    answers.set(viewer.id, "changed@demo.test");
    const changed = await drawDraft(viewer, draft.id);
    expect(changed).toMatchObject({ revision: 1, remembered: false });
    expect(changed.html).toContain("changed@demo.test");
    expect(renders).toHaveLength(2);

    await updateDraft(draft, reading("two"));
    const next = await drawDraft(viewer, draft.id);
    expect(next).toMatchObject({ revision: 2, remembered: false });
    expect(next.html).toContain(`<p id="label">two</p>`);
    expect(renders).toHaveLength(3);
    // The older revision's drawing is still its own: kept revisions answer as they were drawn.
    expect(await drawDraft(viewer, draft.id, "desktop", 1)).toMatchObject({ revision: 1, remembered: true });
    expect(renders).toHaveLength(3);

    const theirs = await drawDraft(other, draft.id);
    expect(theirs).toMatchObject({ revision: 2, remembered: false });
    expect(theirs.html).toContain("member@demo.test");
    expect(theirs.html).not.toContain("changed@demo.test");
    expect(await drawDraft(viewer, draft.id, "phone")).toMatchObject({ revision: 2, viewport: "phone", remembered: false });
    expect(renders.map((r) => r.viewport)).toEqual([1280, 1280, 1280, 1280, 390]);
  });

  it("keeps one drawing per viewer and draft under way: the same key shares it, another revision is told to come back", async () => {
    const draft = await createDraft(reading("one"));
    let release!: () => void;
    hold = new Promise<void>((r) => (release = r));
    const first = drawDraft(viewer, draft.id);
    const same = drawDraft(viewer, draft.id);
    await expect.poll(() => renders.length).toBe(1);
    await updateDraft(draft, reading("two"));
    const busy = await drawDraft(viewer, draft.id).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ApiError);
    expect(busy).toMatchObject({ code: "renderer_busy", headers: { "retry-after": "2" } });
    // Another viewer's drawing of the same draft is theirs, not held up by this one.
    const theirs = drawDraft(other, draft.id);
    await expect.poll(() => renders.length).toBe(2);
    release();
    const [a, b] = await Promise.all([first, same]);
    expect(a).toBe(b);
    expect(a.revision).toBe(1);
    expect((await theirs).revision).toBe(2);
    // Once it is done, the new revision draws.
    hold = null;
    expect(await drawDraft(viewer, draft.id)).toMatchObject({ revision: 2, remembered: false });
    expect(renders).toHaveLength(3);
  });

  it("keeps a draft's drawings apart from a saved dashboard's", async () => {
    const draft = await createDraft(reading("draft"));
    const d = await drawableRevision(playground.context, draft.id, null);
    await drawings.draw(viewer, { draftId: draft.id, revision: 1, title: "Draft", html: d.html }, d.reads, "desktop", "198.18.0.1");
    const saved = await drawings.draw(viewer, { ownerId: other.id, handle: "member", slug: draft.id, revision: 1, title: "Saved", html: reading("saved") }, d.reads, "desktop", "198.18.0.1");
    expect(saved.remembered).toBe(false);
    expect(saved.html).toContain(`<p id="label">saved</p>`);
  });

  describe("the route", () => {
    const route = () => draftDrawingRoute({ db: async () => h.db, playground: async () => playground, drawings, trustedProxy: [] });
    const get = (id: string, query = "", cookie: string | null = `dd_session=${viewerToken}`) =>
      route().GET(new Request(`${origin}/dashboards/playground/draft/${id}/drawn${query}`, { headers: cookie ? { cookie } : {} }), { params: { token: id } });

    it("answers the signed-in viewer's drawing of a live draft", async () => {
      const draft = await createDraft(reading("routed"));
      const res = await get(draft.id, "?viewport=phone&revision=1");
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      const body = (await res.json()) as { html: string; viewport: string; revision: number };
      expect(body).toMatchObject({ viewport: "phone", revision: 1 });
      expect(body.html).toContain("admin@demo.test");
    });

    it("refuses a signed-out caller, a demo draft, an unknown draft or revision and a viewport it does not draw, drawing nothing", async () => {
      const live = await createDraft(reading("live"));
      const demo = await createDraft(reading("demo"), "demo");
      const cases: [Response, number, string][] = [
        [await get(live.id, "", null), 401, "unauthorized"],
        [await get(demo.id), 409, "draw_live_only"],
        [await get("A".repeat(22)), 404, "no_such_draft"],
        [await get(live.id, "?revision=7"), 404, "no_such_revision"],
        [await get(live.id, "?viewport=watch"), 400, "invalid_request"],
      ];
      for (const [res, status, error] of cases) {
        expect({ status: res.status, body: await res.json() }).toMatchObject({ status, body: { error, hint: expect.any(String) } });
      }
      expect(renders).toEqual([]);
      const post = await route().POST(new Request(`${origin}/dashboards/playground/draft/${live.id}/drawn`, { method: "POST" }), { params: { token: live.id } });
      expect({ status: post.status, body: await post.json() }).toMatchObject({ status: 405, body: { error: "method_not_allowed" } });
    });
  });
});
