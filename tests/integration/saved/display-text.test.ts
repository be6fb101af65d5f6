import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unsafeCharacter } from "@/lib/contract/display-text";
import { upsertUser, userIdByEmail } from "@/lib/auth/users";
import { draftNaming } from "@/lib/drafts/drafts";
import { listSpace, loadDashboard, saveDashboard } from "@/lib/saved/store";
import { UNSAFE_DISPLAY_LIST, codePoint } from "@/tests/fixtures/display-text";
import { backends } from "../support/backends";
import { create, startApp, type App } from "../playground/support";

// The names people read beside what others made — a person's name and handle, a saved
// dashboard's title, a draft's — on both engines: no bidirectional control, zero-width or control
// character gets into one. A person's name and a title lose them; an email with one (whose local
// part would be the handle) is refused.

describe.each(backends)("names and titles on $name", (backend) => {
  let h: Awaited<ReturnType<typeof backend.open>>;

  beforeAll(async () => {
    h = await backend.open();
  });
  afterAll(async () => {
    await h.close();
  });

  it("keeps a person's name without them, whoever provisions the person", async () => {
    for (const [i, ch] of UNSAFE_DISPLAY_LIST.entries()) {
      const email = `name-${i}@example.test`;
      const id = await upsertUser(h.db, { email, name: `Ada${ch}Lovelace`, groups: [] });
      // Again, as the next sign-in brings the provider's claims up to date.
      await upsertUser(h.db, { email, name: `${ch}Ada Lovelace${ch}`, groups: [] });
      const row = await h.db.selectFrom("users").select(["name", "handle"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(unsafeCharacter(row.name), codePoint(ch)).toBeNull();
      expect(row.name, codePoint(ch)).toBe("Ada Lovelace");
      expect(row.handle).toBe(`name-${i}`);
    }
    // A name with nothing left is the email, as a missing one is.
    const blank = await upsertUser(h.db, { email: "blank@example.test", name: "\u202e\u200b", groups: [] });
    expect((await h.db.selectFrom("users").select("name").where("id", "=", blank).executeTakeFirstOrThrow()).name).toBe("blank@example.test");
  });

  it("refuses an email that carries one, since its handle could read as someone else's", async () => {
    await upsertUser(h.db, { email: "admin@example.test", name: "Admin", groups: [] });
    const people = async () => Number((await h.db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    const before = await people();
    for (const ch of UNSAFE_DISPLAY_LIST) {
      const email = `ad${ch}min@example.test`;
      await expect(upsertUser(h.db, { email, name: "Not the admin", groups: [] }), codePoint(ch)).rejects.toThrow(`the email address contains ${codePoint(ch)}`);
      // Refused before storage is asked (which could not even hold U+0000 on PostgreSQL).
      if (ch !== "\u0000") expect(await userIdByEmail(h.db, email)).toBeNull();
    }
    expect(await people()).toBe(before);
    const handles = (await h.db.selectFrom("users").select("handle").execute()).map((r) => r.handle);
    expect(handles.filter((handle) => unsafeCharacter(handle) !== null)).toEqual([]);
  });

  it("saves a dashboard under its title without them, in the space's list and every revision", async () => {
    const ownerId = await upsertUser(h.db, { email: "titles@example.test", name: "Titles", groups: [] });
    for (const [i, ch] of UNSAFE_DISPLAY_LIST.entries()) {
      const slug = `t-${i}`;
      // As an entity, then as itself (HTML has no NUL, and &#0; is no character but text).
      if (ch !== "\u0000") await saveDashboard(h.db, { ownerId, handle: "titles", slug, html: `<!doctype html><title>&#${ch.codePointAt(0)};Q3 renewals</title><p>y</p>` });
      const literal = ch === "\u0000" ? "\u200b" : ch;
      await saveDashboard(h.db, { ownerId, handle: "titles", slug, html: `<!doctype html><title>Q3${literal} renewals${literal}</title><p>x</p>` });
      expect((await loadDashboard(h.db, "titles", slug))?.title, codePoint(ch)).toBe("Q3 renewals");
    }
    const revisions = await h.db.selectFrom("saved_dashboard_revisions").select("title").where("owner_id", "=", ownerId).execute();
    expect(revisions.length).toBe(UNSAFE_DISPLAY_LIST.length * 2 - 1);
    expect(revisions.filter((r) => r.title !== "Q3 renewals")).toEqual([]);
    const listed = await listSpace(h.db, ownerId, "titles");
    expect(listed.every((d) => unsafeCharacter(d.title) === null)).toBe(true);
  });

  describe("a draft's name", () => {
    let app: App;
    beforeAll(async () => {
      app = await startApp(h);
    });
    afterAll(async () => {
      await app.close();
    });

    it("is its <title> without them, as the watch page shows it", async () => {
      for (const ch of ["\u202e", "\u2067", "\u200b", "\ufeff", "\u0007", "\u009b"]) {
        const created = await create(app, { html: `<!doctype html><title>\u200fPipe${ch}line</title><p>x</p>` });
        expect(await draftNaming(app.playground.context, created.id), codePoint(ch)).toEqual({ name: "Pipeline" });
      }
    });
  });
});
